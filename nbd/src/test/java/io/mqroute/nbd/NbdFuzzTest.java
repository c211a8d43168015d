package io.mqroute.nbd;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.metrics.LogLineCounter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Seeded malformed NBD against a real server over real sockets (issue #15's frame fuzz, the NBD
 * part): {@value #FRAMES} generated handshake messages and requests — bad client flags, option
 * magics and lengths, too many options, unknown options and exports, handshakes cut off anywhere,
 * bad request magics, huge and oversized writes, requests past the end or at offsets over 2^63,
 * unknown commands, writes whose payload never comes — and a flood of idle connections past
 * max-connections, while two clients write and read back their own blocks. Then: the clients saw 0
 * errors, every connection the server had to close was closed, it still serves, nothing is left
 * open, heap and threads are bounded, and the log has no stack trace and a bounded number of lines;
 * the counters name each kind of refusal.
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NbdFuzzTest {
  private static final long SEED = 15;

  /** Generated NBD messages in all. */
  static final int FRAMES = 2_000;

  private static final long SIZE = 8L << 20;

  /** The load's blocks are below this; the fuzz writes only above it. */
  private static final long LOAD_AREA = 4L << 20;

  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration HANG = HANDSHAKE_TIMEOUT.plusSeconds(8);
  private static final int MAX_CONNECTIONS = 24;
  private static final int MAX_OPTIONS = 8;
  private static final int CONCURRENT = 16;
  private static final int LOG_LINES_MAX = 40;
  private static final Duration BUDGET = Duration.ofSeconds(60);

  private ActorTestKit kit;
  private ExecutorService pool;

  @AfterEach
  void shutDown() {
    if (pool != null) {
      pool.shutdownNow();
    }
    if (kit != null) {
      kit.shutdownTestKit();
    }
  }

  /** One connection's bytes; {@code closes}: the server must end it on its own. */
  private record Script(byte[] bytes, int frames, boolean closes, String kind) {}

  private static byte[] option(int option, byte[] data) {
    return ByteBuffer.allocate(16 + data.length)
        .putLong(NbdWire.IHAVEOPT)
        .putInt(option)
        .putInt(data.length)
        .put(data)
        .array();
  }

  private static byte[] request(int flags, int type, long cookie, long offset, long length) {
    return ByteBuffer.allocate(28)
        .putInt(NbdWire.REQUEST_MAGIC)
        .putShort((short) flags)
        .putShort((short) type)
        .putLong(cookie)
        .putLong(offset)
        .putInt((int) length)
        .array();
  }

  private static byte[] flags() {
    return ByteBuffer.allocate(4)
        .putInt(NbdWire.FLAG_C_FIXED_NEWSTYLE | NbdWire.FLAG_C_NO_ZEROES)
        .array();
  }

  private static Script script(SplittableRandom r) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    int kind = r.nextInt(12);
    int frames = 1;
    boolean closes = true;
    int violationEnd = -1; // transmission phase: where the bad request's header ends
    switch (kind) {
      case 0 ->
          b.writeBytes(ByteBuffer.allocate(4).putInt(r.nextInt(4, Integer.MAX_VALUE)).array());
      case 1 -> {
        b.writeBytes(flags());
        byte[] junk = new byte[r.nextInt(16, 64)];
        r.nextBytes(junk);
        b.writeBytes(junk); // no option magic
        frames = 2;
      }
      case 2 -> {
        // an option that claims up to 4 GiB of data
        b.writeBytes(flags());
        b.writeBytes(
            ByteBuffer.allocate(16)
                .putLong(NbdWire.IHAVEOPT)
                .putInt(r.nextBoolean() ? NbdWire.OPT_EXPORT_NAME : r.nextInt())
                .putInt(r.nextInt(1 << 20, Integer.MAX_VALUE) * (r.nextBoolean() ? 1 : -1))
                .array());
        frames = 2;
      }
      case 3 -> {
        // one option too many
        b.writeBytes(flags());
        for (int i = 0; i <= MAX_OPTIONS; i++, frames++) {
          b.writeBytes(
              option(r.nextBoolean() ? NbdWire.OPT_LIST : r.nextInt(9, 1000), new byte[0]));
        }
      }
      case 4 -> {
        // unknown options, then nothing: the handshake never ends
        b.writeBytes(flags());
        for (int i = r.nextInt(1, MAX_OPTIONS); i > 0; i--, frames++) {
          byte[] d = new byte[r.nextInt(0, 64)];
          r.nextBytes(d);
          b.writeBytes(option(r.nextInt(), d));
        }
      }
      case 5 -> {
        b.writeBytes(flags());
        b.writeBytes(option(NbdWire.OPT_EXPORT_NAME, "no-such-export".getBytes()));
        frames = 2;
      }
      case 6 -> {
        // a GO whose data lies about the name's length
        b.writeBytes(flags());
        byte[] d = RawNbdClient.goData("", NbdWire.INFO_BLOCK_SIZE);
        ByteBuffer.wrap(d).putInt(r.nextInt());
        b.writeBytes(option(NbdWire.OPT_GO, d));
        frames =
            2; // refused with an error reply: the handshake goes on, unfinished, to its timeout
      }
      default -> {
        // the transmission phase: a good GO, then requests, the last of them bad
        b.writeBytes(flags());
        b.writeBytes(option(NbdWire.OPT_GO, RawNbdClient.goData("", NbdWire.INFO_BLOCK_SIZE)));
        frames = 2;
        closes = false;
        int n = r.nextInt(1, 8);
        for (int i = 0; i < n; i++, frames++) {
          long cookie = r.nextLong();
          switch (r.nextInt(9)) {
            case 0 -> {
              byte[] bad = request(0, NbdWire.CMD_READ, cookie, 0, 512);
              bad[r.nextInt(4)] ^= (byte) (1 << r.nextInt(8));
              b.writeBytes(bad);
              violationEnd = b.size();
            }
            case 1 -> {
              b.writeBytes(request(0, NbdWire.CMD_WRITE, cookie, LOAD_AREA, 0xffff_fff0L));
              violationEnd = b.size();
            }
            case 2 -> b.writeBytes(request(0, NbdWire.CMD_READ, cookie, SIZE - 100, 4096));
            case 3 ->
                b.writeBytes(request(0, NbdWire.CMD_READ, cookie, -r.nextLong(1, 1L << 62), 512));
            case 4 -> b.writeBytes(request(0, r.nextInt(5, 1 << 16), cookie, 0, 512));
            case 5 ->
                b.writeBytes(request(r.nextInt(1, 1 << 16), NbdWire.CMD_READ, cookie, 0, 512));
            case 6 -> {
              // a write above the load's area with its payload
              int len = 512 * r.nextInt(1, 9);
              long off = LOAD_AREA + 512L * r.nextLong((SIZE - LOAD_AREA - len) / 512);
              b.writeBytes(request(0, NbdWire.CMD_WRITE, cookie, off, len));
              byte[] d = new byte[len];
              r.nextBytes(d);
              b.writeBytes(d);
            }
            case 7 -> {
              // a write whose payload is cut short: the server waits for the rest
              b.writeBytes(request(0, NbdWire.CMD_WRITE, cookie, LOAD_AREA, 4096));
              b.writeBytes(new byte[r.nextInt(0, 4096)]);
              i = n;
            }
            default ->
                b.writeBytes(request(0, NbdWire.CMD_TRIM, cookie, SIZE, r.nextInt(1, 1 << 20)));
          }
          if (violationEnd > 0) {
            break;
          }
        }
      }
    }
    byte[] all = b.toByteArray();
    if (r.nextInt(8) == 0 && all.length > 1) {
      // cut off anywhere: before the transmission phase that is a handshake that never ends
      all = Arrays.copyOf(all, r.nextInt(1, all.length));
    }
    if (kind >= 7) {
      // the flags and the GO take 28 bytes: short of them the handshake never ends
      closes = all.length < 28 || (violationEnd > 0 && all.length >= violationEnd);
    }
    return new Script(all, frames, closes, "nbd " + kind);
  }

  /** Writes the script; true if the server closed the connection within {@link #HANG}. */
  private static boolean closedByServer(InetSocketAddress server, Script s) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(server, 5_000);
      socket.setSoTimeout((int) HANG.toMillis());
      OutputStream out = socket.getOutputStream();
      try {
        out.write(s.bytes());
        out.flush();
      } catch (IOException closedWhileWriting) {
        return true;
      }
      if (!s.closes()) {
        return false;
      }
      InputStream in = socket.getInputStream();
      byte[] sink = new byte[4096];
      try {
        while (in.read(sink) >= 0) {
          // the greeting and replies; drain until the server closes
        }
        return true;
      } catch (SocketTimeoutException stillOpen) {
        return false;
      } catch (IOException reset) {
        return true;
      }
    }
  }

  /** Two clients writing their own blocks and reading them back, until told to stop. */
  private static final class Load {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong ok = new AtomicLong();
    final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    final List<Thread> threads = new ArrayList<>();

    Load(InetSocketAddress server) {
      for (int t = 0; t < 2; t++) {
        final int id = t;
        Thread th =
            new Thread(
                () -> {
                  SplittableRandom r = new SplittableRandom(id);
                  try (RawNbdClient c = new RawNbdClient(server)) {
                    c.go();
                    for (long i = 0; !stop.get(); i++) {
                      // each client its own half of the load's area, 4 KiB blocks
                      long off =
                          id * (LOAD_AREA / 2) + 4096L * r.nextInt((int) (LOAD_AREA / 2 / 4096));
                      byte[] d = new byte[4096];
                      r.nextBytes(d);
                      c.request(NbdWire.CMD_WRITE, 2 * i, off, 4096, d);
                      RawNbdClient.Reply w = c.reply();
                      c.request(NbdWire.CMD_READ, 2 * i + 1, off, 4096, null);
                      RawNbdClient.Reply rd = c.reply();
                      byte[] back = c.readData(4096);
                      if (w.error() != 0 || rd.error() != 0 || !Arrays.equals(d, back)) {
                        errors.add("block at " + off + ": " + w + " " + rd);
                      } else {
                        ok.incrementAndGet();
                      }
                    }
                  } catch (IOException | RuntimeException e) {
                    errors.add(e.toString());
                  }
                },
                "nbd-load-" + t);
        threads.add(th);
        th.start();
      }
    }

    void stop() throws InterruptedException {
      stop.set(true);
      for (Thread t : threads) {
        t.join(30_000);
      }
    }
  }

  @Test
  void twoThousandBadMessagesAndAnIdleFloodLeaveTheServerServing() throws Exception {
    kit = ActorTestKit.create();
    NbdServerSettings settings =
        new NbdServerSettings(
            "127.0.0.1", 0, "", 16, MAX_CONNECTIONS, HANDSHAKE_TIMEOUT, MAX_OPTIONS);
    SplittableRandom random = new SplittableRandom(SEED);
    List<Script> scripts = new ArrayList<>();
    long frames = 0;
    while (frames < FRAMES) {
      Script s = script(random);
      scripts.add(s);
      frames += s.frames();
    }
    try (NbdServer server =
        NbdServer.startAndWait(settings, new MemoryBackend(SIZE), Duration.ofSeconds(10))) {
      System.gc();
      long heapBefore = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
      LogLineCounter log = LogLineCounter.attach(20);
      long start = System.nanoTime();
      Load load = new Load(server.address());
      pool = Executors.newFixedThreadPool(CONCURRENT);
      List<Future<Boolean>> results = new ArrayList<>();
      for (Script s : scripts) {
        results.add(pool.submit(() -> closedByServer(server.address(), s)));
      }
      List<String> hung = new ArrayList<>();
      long closed = 0;
      for (int i = 0; i < scripts.size(); i++) {
        if (results.get(i).get(HANG.toSeconds() + 30, TimeUnit.SECONDS)) {
          closed++;
        } else if (scripts.get(i).closes()) {
          hung.add(i + " (" + scripts.get(i).kind() + ")");
        }
      }
      // idle connections past max-connections: the surplus refused at once, the rest timed out
      List<Socket> idle = new ArrayList<>();
      long idleClosed = 0;
      for (int i = 0; i < MAX_CONNECTIONS + 20; i++) {
        Socket s = new Socket();
        s.connect(server.address(), 5_000);
        s.setSoTimeout((int) HANG.toMillis());
        idle.add(s);
      }
      for (Socket s : idle) {
        try (s) {
          InputStream in = s.getInputStream();
          while (in.read() >= 0) {
            // the greeting, if it got one; then the server closes
          }
          idleClosed++;
        } catch (SocketTimeoutException stillOpen) {
          // not closed
        } catch (IOException reset) {
          idleClosed++;
        }
      }
      load.stop();
      pool.shutdown();
      assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      log.detach();
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      System.out.printf(
          "nbd: %,d messages on %,d connections (%,d closed by the server) in %,d ms: %.0f/s;"
              + " load %,d ok, %d errors; counters %s; log %d lines, %d traces%n",
          frames,
          scripts.size(),
          closed,
          tookMs,
          frames * 1000.0 / tookMs,
          load.ok.get(),
          load.errors.size(),
          server.counters(),
          log.lines(),
          log.traces());
      log.sample().forEach(l -> System.out.println("  log: " + l));
      assertThat(load.errors).as("errors the load saw").isEmpty();
      assertThat(load.ok.get()).isPositive();
      assertThat(hung).as("connections the server never closed").isEmpty();
      assertThat(idleClosed).as("idle connections closed").isEqualTo(MAX_CONNECTIONS + 20);
      assertThat(Duration.ofMillis(tookMs)).isLessThan(BUDGET);
      try (RawNbdClient c = new RawNbdClient(server.address())) {
        assertThat(c.go()).isEqualTo(SIZE);
        c.request(NbdWire.CMD_READ, 1, 0, 4096, null);
        assertThat(c.reply().error()).isZero();
      }
      kit.createTestProbe()
          .awaitAssert(
              Duration.ofSeconds(20),
              () -> {
                assertThat(server.gauges()).containsEntry("open", 0L).containsEntry("pending", 0L);
                return null;
              });
      assertThat(server.counters())
          .hasEntrySatisfying(NbdServerStats.PROTOCOL_ERROR, n -> assertThat(n).isPositive())
          .hasEntrySatisfying(NbdServerStats.HANDSHAKE_TIMEOUT, n -> assertThat(n).isPositive())
          .hasEntrySatisfying(NbdServerStats.REFUSED_LIMIT, n -> assertThat(n).isPositive());
      assertThat(ManagementFactory.getThreadMXBean().findDeadlockedThreads()).isNull();
      assertThat(ManagementFactory.getThreadMXBean().getThreadCount())
          .isLessThan(threadsBefore + 20);
      System.gc();
      long heapAfter = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
      assertThat(heapAfter - heapBefore).as("heap growth").isLessThan(64L << 20);
      assertThat(log.traces()).as("stack traces in the log").isZero();
      assertThat(log.lines()).as("log lines").isLessThanOrEqualTo(LOG_LINES_MAX);
    }
  }
}
