package io.mqroute.nbd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server over real loopback sockets with a hand-rolled client: a good session, replies out of
 * order, backpressure at the in-flight bound, and bad clients (garbage, a handshake that stops
 * half-way, a huge length, requests past the end), after each of which the server still serves a
 * new connection.
 */
class NbdServerTest {
  private static final long SIZE = 8L << 20;
  private static ActorTestKit kit;

  @BeforeAll
  static void start() {
    kit = ActorTestKit.create();
  }

  @AfterAll
  static void stop() {
    kit.shutdownTestKit();
  }

  /** A backend whose replies the test completes, counting how many it holds at once. */
  static final class HeldBackend implements NbdBackend {
    record Held(Op op, long offset, int length, CompletableFuture<Reply> reply) {}

    final LinkedBlockingQueue<Held> submitted = new LinkedBlockingQueue<>();
    final AtomicInteger held = new AtomicInteger();
    final AtomicInteger maxHeld = new AtomicInteger();

    @Override
    public long size() {
      return SIZE;
    }

    @Override
    public Session open(int connection) {
      return (op, offset, length, data) -> {
        maxHeld.accumulateAndGet(held.incrementAndGet(), Math::max);
        CompletableFuture<Reply> f = new CompletableFuture<>();
        submitted.add(new Held(op, offset, length, f));
        return f.whenComplete((r, e) -> held.decrementAndGet());
      };
    }

    Held next() throws InterruptedException {
      Held h = submitted.poll(10, TimeUnit.SECONDS);
      assertThat(h).as("a request reached the backend").isNotNull();
      return h;
    }
  }

  private static NbdServer server(NbdBackend backend, NbdServerSettings s) throws Exception {
    return NbdServer.startAndWait(s, backend, Duration.ofSeconds(10));
  }

  private static NbdServer server(NbdBackend backend) throws Exception {
    return server(backend, NbdServerSettings.loopback(0));
  }

  /** A fresh connection still gets through the handshake and a read. */
  private static void stillServes(NbdServer server) throws IOException {
    try (RawNbdClient c = new RawNbdClient(server.address())) {
      assertThat(c.go()).isEqualTo(SIZE);
      c.request(NbdWire.CMD_READ, 99, 0, 512, null);
      RawNbdClient.Reply r = c.reply();
      assertThat(r.error()).isZero();
      assertThat(r.cookie()).isEqualTo(99);
      c.readData(512);
    }
  }

  @Test
  void writesReadBackAndFlushAndTrimAnswer() throws Exception {
    MemoryBackend mem = new MemoryBackend(SIZE);
    try (NbdServer server = server(mem);
        RawNbdClient c = new RawNbdClient(server.address())) {
      assertThat(c.go()).isEqualTo(SIZE);
      byte[] data = new byte[32 * 1024];
      for (int i = 0; i < data.length; i++) {
        data[i] = (byte) (i * 7);
      }
      c.request(NbdWire.CMD_WRITE, 1, SIZE - data.length, data.length, data);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 1));
      c.request(NbdWire.CMD_FLUSH, 2, 0, 0, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 2));
      c.request(NbdWire.CMD_READ, 3, SIZE - data.length, data.length, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 3));
      assertThat(c.readData(data.length)).isEqualTo(data);
      c.request(NbdWire.CMD_TRIM, 4, SIZE - data.length, data.length, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 4));
      c.request(NbdWire.CMD_DISC, 5, 0, 0, null);
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void repliesGoOutAsRequestsEndMatchedByCookie() throws Exception {
    HeldBackend backend = new HeldBackend();
    try (NbdServer server = server(backend);
        RawNbdClient c = new RawNbdClient(server.address())) {
      c.go();
      c.request(NbdWire.CMD_READ, 0xA, 0, 4, null);
      c.request(NbdWire.CMD_READ, 0xB, 4096, 4, null);
      HeldBackend.Held a = backend.next();
      HeldBackend.Held b = backend.next();
      b.reply().complete(new NbdBackend.Reply(0, new byte[] {1, 2, 3, 4}));
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 0xB));
      assertThat(c.readData(4)).containsExactly(1, 2, 3, 4);
      a.reply().complete(NbdBackend.Reply.error(NbdWire.EIO));
      // an error reply carries no data
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(NbdWire.EIO, 0xA));
      // DISC answers what is in flight before closing
      c.request(NbdWire.CMD_READ, 0xC, 0, 4, null);
      HeldBackend.Held late = backend.next();
      c.request(NbdWire.CMD_DISC, 0xD, 0, 0, null);
      late.reply().complete(new NbdBackend.Reply(0, new byte[4]));
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 0xC));
      c.readData(4);
      assertThat(c.closedByServer()).isTrue();
    }
  }

  @Test
  void atTheInFlightBoundTheServerStopsReadingTheSocket() throws Exception {
    HeldBackend backend = new HeldBackend();
    try (NbdServer server = server(backend, NbdServerSettings.loopback(0).withMaxInFlight(4));
        RawNbdClient c = new RawNbdClient(server.address())) {
      c.go();
      int n = 40;
      for (int i = 0; i < n; i++) {
        c.request(NbdWire.CMD_READ, i, 512L * i, 512, null);
      }
      Set<Long> answered = new HashSet<>();
      List<HeldBackend.Held> batch = new ArrayList<>();
      while (answered.size() < n) {
        batch.add(backend.next());
        // the backend never holds more than the bound, whatever the client sent
        assertThat(backend.held.get()).isLessThanOrEqualTo(4);
        if (batch.size() == 4 || answered.size() + batch.size() == n) {
          for (HeldBackend.Held h : batch) {
            h.reply().complete(new NbdBackend.Reply(0, new byte[h.length()]));
          }
          for (int i = 0; i < batch.size(); i++) {
            RawNbdClient.Reply r = c.reply();
            c.readData(512);
            answered.add(r.cookie());
          }
          batch.clear();
        }
      }
      assertThat(backend.maxHeld.get()).isEqualTo(4);
      assertThat(answered).hasSize(n);
    }
  }

  @Test
  void garbageClosesTheConnectionAndTheServerServesOn() throws Exception {
    try (NbdServer server = server(new MemoryBackend(SIZE))) {
      try (RawNbdClient c = new RawNbdClient(server.address())) {
        c.greet(1);
        c.out.write("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes());
        c.out.flush();
        assertThat(c.closedByServer()).isTrue();
      }
      // garbage in the transmission phase
      try (RawNbdClient c = new RawNbdClient(server.address())) {
        c.go();
        c.out.write(new byte[64]);
        c.out.flush();
        assertThat(c.closedByServer()).isTrue();
      }
      stillServes(server);
    }
  }

  @Test
  void aHandshakeThatStopsHalfWayIsClosedAtItsTimeout() throws Exception {
    NbdServerSettings s =
        NbdServerSettings.loopback(0).withHandshakeTimeout(Duration.ofMillis(300));
    try (NbdServer server = server(new MemoryBackend(SIZE), s)) {
      try (RawNbdClient silent = new RawNbdClient(server.address());
          RawNbdClient half = new RawNbdClient(server.address())) {
        half.greet(1);
        // half an option header, then nothing
        half.out.write(ByteBuffer.allocate(8).putLong(NbdWire.IHAVEOPT).array());
        half.out.flush();
        assertThat(silent.closedByServer()).isTrue();
        assertThat(half.closedByServer()).isTrue();
      }
      stillServes(server);
    }
  }

  @Test
  void aHugeWriteLengthClosesAndAnOversizedOneIsEinval() throws Exception {
    MemoryBackend mem = new MemoryBackend(SIZE);
    try (NbdServer server = server(mem)) {
      try (RawNbdClient c = new RawNbdClient(server.address())) {
        c.go();
        c.request(NbdWire.CMD_WRITE, 1, 0, 0xffff_fff0, null);
        assertThat(c.closedByServer()).isTrue();
      }
      try (RawNbdClient c = new RawNbdClient(server.address())) {
        c.go();
        // 1 MiB: over the 32 KiB maximum, under the spec's DoS threshold: read, dropped, EINVAL
        c.request(NbdWire.CMD_WRITE, 2, 0, 1 << 20, new byte[1 << 20]);
        assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(NbdWire.EINVAL, 2));
        c.request(NbdWire.CMD_READ, 3, 0, 64 * 1024, null);
        assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(NbdWire.EINVAL, 3));
      }
      assertThat(mem.requests()).as("nothing reached the backend").isZero();
      stillServes(server);
    }
  }

  @Test
  void requestsPastTheEndAreRefusedBeforeTheBackend() throws Exception {
    MemoryBackend mem = new MemoryBackend(SIZE);
    try (NbdServer server = server(mem);
        RawNbdClient c = new RawNbdClient(server.address())) {
      c.go();
      c.request(NbdWire.CMD_READ, 1, SIZE, 512, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(NbdWire.EINVAL, 1));
      c.request(NbdWire.CMD_WRITE, 2, SIZE - 256, 512, new byte[512]);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(NbdWire.ENOSPC, 2));
      c.request(NbdWire.CMD_TRIM, 3, 0, (int) SIZE + 1, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(NbdWire.EINVAL, 3));
      assertThat(mem.requests()).isZero();
      // and the connection goes on
      c.request(NbdWire.CMD_READ, 4, SIZE - 512, 512, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 4));
    }
  }

  @Test
  void connectionsOverTheLimitAreClosed() throws Exception {
    NbdServerSettings s =
        new NbdServerSettings("127.0.0.1", 0, "", 8, 2, Duration.ofSeconds(10), 8);
    try (NbdServer server = server(new MemoryBackend(SIZE), s);
        RawNbdClient a = new RawNbdClient(server.address());
        RawNbdClient b = new RawNbdClient(server.address())) {
      a.go();
      b.go();
      try (RawNbdClient third = new RawNbdClient(server.address())) {
        assertThat(third.closedByServer()).isTrue();
      }
    }
  }
}
