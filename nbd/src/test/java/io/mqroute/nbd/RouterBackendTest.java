package io.mqroute.nbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The router backend behind a real socket, against a stand-in router that answers batches as a host
 * router's client endpoint does: data-carrying reads and writes, a flush as FSYNC of the export's
 * file, a trim answered without a round trip, one CPU per connection, and the router's statuses as
 * NBD errors (ENOTCONN is EIO, not ESHUTDOWN).
 */
class RouterBackendTest {
  private static final long SIZE = 1 << 20;
  private static final long FILE = 5;
  private static ActorTestKit kit;
  private static final LinkedBlockingQueue<Request> seen = new LinkedBlockingQueue<>();
  private static final AtomicReference<Status> answer = new AtomicReference<>(Status.OK);
  private static final Map<Long, byte[]> blocks = new ConcurrentHashMap<>();

  /** Stores writes by offset, returns them to reads, ends everything with {@link #answer}. */
  static Behavior<Object> standInRouter() {
    return Behaviors.receive(Object.class)
        .onMessage(
            RequestBatch.class,
            b -> {
              List<Completion> done = new ArrayList<>();
              for (Request r : b.requests()) {
                seen.add(r);
                Status s = answer.get();
                byte[] data = null;
                if (s == Status.OK && r.op() == Op.WRITE) {
                  blocks.put(r.offset(), r.data());
                } else if (s == Status.OK && r.op() == Op.READ) {
                  data = blocks.getOrDefault(r.offset(), new byte[r.length()]);
                }
                done.add(new Completion(r.id(), s, r.submitNanos(), 0, 0, 0, data));
              }
              CompletionBatch.split(done).forEach(b.replyTo()::tell);
              return Behaviors.same();
            })
        .build();
  }

  private static NbdServer server;

  @BeforeAll
  static void start() throws Exception {
    kit = ActorTestKit.create();
    ActorRef<Object> router = kit.spawn(standInRouter(), "router");
    @SuppressWarnings("unchecked")
    ActorRef<Request> entry = (ActorRef<Request>) (ActorRef<?>) router;
    server =
        NbdServer.startAndWait(
            NbdServerSettings.loopback(0),
            new RouterBackend(kit.system(), entry, SIZE, FILE),
            Duration.ofSeconds(10));
  }

  @AfterAll
  static void stop() {
    server.close();
    kit.shutdownTestKit();
  }

  @Test
  void readsAndWritesCarryTheirBytesAndEachConnectionIsOneCpu() throws Exception {
    answer.set(Status.OK);
    try (RawNbdClient a = new RawNbdClient(server.address());
        RawNbdClient b = new RawNbdClient(server.address())) {
      a.go();
      b.go();
      seen.clear();
      byte[] block = new byte[4096];
      block[17] = 17;
      a.request(NbdWire.CMD_WRITE, 1, 8192, 4096, block);
      assertThat(a.reply()).isEqualTo(new RawNbdClient.Reply(0, 1));
      b.request(NbdWire.CMD_READ, 2, 8192, 4096, null);
      assertThat(b.reply()).isEqualTo(new RawNbdClient.Reply(0, 2));
      assertThat(b.readData(4096)).isEqualTo(block);
      Request w = seen.take();
      Request r = seen.take();
      assertThat(w.op()).isEqualTo(Op.WRITE);
      assertThat(w.fileId()).isEqualTo(FILE);
      assertThat(w.offset()).isEqualTo(8192);
      assertThat(w.carriesData()).isTrue();
      assertThat(r.op()).isEqualTo(Op.READ);
      assertThat(r.carriesData()).isTrue();
      assertThat(r.cpu()).as("two connections, two submitting CPUs").isNotEqualTo(w.cpu());
    }
  }

  @Test
  void aFlushIsAnFsyncOfTheFileAndATrimNeverReachesTheRouter() throws Exception {
    answer.set(Status.OK);
    try (RawNbdClient c = new RawNbdClient(server.address())) {
      c.go();
      seen.clear();
      c.request(NbdWire.CMD_TRIM, 1, 0, 65536, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 1));
      c.request(NbdWire.CMD_FLUSH, 2, 0, 0, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 2));
      Request f = seen.take();
      assertThat(f.op()).isEqualTo(Op.FSYNC);
      assertThat(f.fileId()).isEqualTo(FILE);
      assertThat(seen).isEmpty();
    }
  }

  @Test
  void theRoutersStatusesBecomeNbdErrors() throws Exception {
    try (RawNbdClient c = new RawNbdClient(server.address())) {
      c.go();
      long cookie = 0;
      for (Status s : Status.values()) {
        answer.set(s);
        c.request(NbdWire.CMD_READ, ++cookie, 0, 512, null);
        RawNbdClient.Reply r = c.reply();
        assertThat(r.cookie()).isEqualTo(cookie);
        int expected =
            switch (s) {
              case OK -> 0;
              case EINVAL -> NbdWire.EINVAL;
              case ENOSPC -> NbdWire.ENOSPC;
              default -> NbdWire.EIO;
            };
        assertThat(r.error()).as(s.name()).isEqualTo(expected);
        if (expected == 0) {
          c.readData(512);
        }
      }
      answer.set(Status.OK);
    }
  }
}
