package io.mqroute.protocol;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A per-stage timestamp trace of real-time requests, for finding where a request's time goes on a
 * cluster (client, host router, device queue, poller, backend and back). Off unless the JVM runs
 * with {@code -Dmqroute.trace=PREFIX}; then every {@link #mark} stores (stage, key, {@code
 * System.nanoTime()}) in preallocated arrays (at most {@code -Dmqroute.trace.events=N}, default 4
 * M; later marks are dropped; {@code -Dmqroute.trace.sample=N} keeps 1 request in N) and a shutdown
 * hook writes them to {@code PREFIX.<pid>.trace}, one {@code stage key nanos} line each. Off,
 * {@link #ON} is a constant false and every call site's {@code if (RequestTrace.ON)} is compiled
 * away.
 *
 * <p>The key of a request is its {@link Request#submitNanos()}: the submitter's clock reading,
 * which every hop copies into its own request and completion, so the marks of one request in
 * several processes share it (on one machine {@code System.nanoTime()} is one monotonic clock for
 * all processes, so their times compare too). {@code bench/scripts/trace-summary.py} joins the
 * files and prints the per-stage latency breakdown. Benchmarks only: never on in tests.
 */
public final class RequestTrace {
  /** Whether this JVM traces (set once, from {@code -Dmqroute.trace}). */
  public static final boolean ON = System.getProperty("mqroute.trace") != null;

  // Stages, in path order. The names are what trace-summary.py prints.
  public static final int NBD_DECODED = 1;
  public static final int NBD_SUBMIT = 2;
  public static final int NBD_OUT = 3;
  public static final int LOAD_SUBMIT = 4;
  public static final int LOAD_OUT = 5;
  public static final int HOST_ACCEPT = 6;
  public static final int HOST_SLOT = 7;
  public static final int HOST_OUT = 8;
  public static final int DEV_ACCEPT = 9;
  public static final int DEV_POLLER = 10;
  public static final int DEV_IO_START = 11;
  public static final int DEV_IO_DONE = 12;
  public static final int DEV_ENDED = 13;
  public static final int DEV_OUT = 14;
  public static final int HOST_SLOT_DONE = 15;
  public static final int HOST_FINISHED = 16;
  public static final int HOST_REPLY_OUT = 17;
  public static final int LOAD_DONE = 18;
  public static final int NBD_COMPLETED = 19;
  public static final int NBD_REPLY = 20;
  public static final int NBD_SENT = 21;

  private static final String[] NAMES = {
    "",
    "nbd.decoded",
    "nbd.submit",
    "nbd.out",
    "load.submit",
    "load.out",
    "host.accept",
    "host.slot",
    "host.out",
    "dev.accept",
    "dev.poller",
    "dev.io-start",
    "dev.io-done",
    "dev.ended",
    "dev.out",
    "host.slot-done",
    "host.finished",
    "host.reply-out",
    "load.done",
    "nbd.completed",
    "nbd.reply",
    "nbd.sent"
  };

  private static final int CAPACITY = ON ? Integer.getInteger("mqroute.trace.events", 4 << 20) : 0;
  // 1 in SAMPLE requests is traced (by a hash of its key, so every process picks the same ones)
  private static final long SAMPLE = Math.max(1, Long.getLong("mqroute.trace.sample", 1));
  private static final long[] KEYS = new long[CAPACITY];
  private static final long[] TIMES = new long[CAPACITY];
  private static final byte[] STAGES = new byte[CAPACITY];
  private static final AtomicInteger NEXT = new AtomicInteger();

  static {
    if (ON) {
      Runtime.getRuntime().addShutdownHook(new Thread(RequestTrace::write, "mqroute-trace"));
    }
  }

  private RequestTrace() {}

  /** The stage's name in the trace files. */
  public static String name(int stage) {
    return NAMES[stage];
  }

  /**
   * Request {@code key} (its submitNanos) reached {@code stage} now. Call only when {@link #ON}.
   */
  public static void mark(int stage, long key) {
    if (SAMPLE > 1 && Long.remainderUnsigned(key * 0x9E3779B97F4A7C15L, SAMPLE) != 0) {
      return;
    }
    int i = NEXT.getAndIncrement();
    if (i < CAPACITY) {
      long now = System.nanoTime();
      KEYS[i] = key;
      TIMES[i] = now;
      STAGES[i] = (byte) stage;
    }
  }

  private static void write() {
    int n = Math.min(NEXT.get(), CAPACITY);
    Path out =
        Path.of(
            System.getProperty("mqroute.trace") + "." + ProcessHandle.current().pid() + ".trace");
    try {
      if (out.getParent() != null) {
        Files.createDirectories(out.getParent());
      }
      try (BufferedWriter w = Files.newBufferedWriter(out, StandardCharsets.US_ASCII)) {
        for (int i = 0; i < n; i++) {
          if (STAGES[i] == 0) {
            continue; // claimed by a mark that had not stored yet when the JVM stopped
          }
          w.write(NAMES[STAGES[i]]);
          w.write(' ');
          w.write(Long.toString(KEYS[i]));
          w.write(' ');
          w.write(Long.toString(TIMES[i]));
          w.write('\n');
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
