package io.mqroute.metrics;

/**
 * fio's fixed completion-latency buckets, the {@code lat (nsec|usec|msec)} lines and the JSON
 * {@code latency_ns}/{@code latency_us}/{@code latency_ms} objects ({@code io_u_mark_latency}).
 *
 * <p>A latency below 1 µs goes to a nanosecond bucket, below 1 ms to a microsecond bucket,
 * otherwise to a millisecond bucket. Within a unit the label is the exclusive upper bound: {@code
 * 4=} counts 2..3, {@code 10=} counts 4..9, and so on; {@code 2=} counts 0..1. The millisecond
 * scale adds {@code 2000=} (1000..1999 ms) and {@code >=2000=}. fio feeds these buckets with clat.
 */
public final class LatencyBuckets {

  /** Bucket labels in nanoseconds and in microseconds (10 each). */
  static final String[] NS_US_LABELS = {
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000"
  };

  /** Bucket labels in milliseconds (12). */
  static final String[] MS_LABELS = {
    "2", "4", "10", "20", "50", "100", "250", "500", "750", "1000", "2000", ">=2000"
  };

  /** Index of the first microsecond bucket in a counts array. */
  static final int US_OFFSET = 10;

  /** Index of the first millisecond bucket in a counts array. */
  static final int MS_OFFSET = 20;

  /** Size of a counts array: 10 ns + 10 µs + 12 ms buckets. */
  static final int SIZE = 32;

  private static final long[] UPPER = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};

  private LatencyBuckets() {}

  /** The bucket index (0..31) of a latency in ns. */
  static int index(long ns) {
    if (ns < 1_000) {
      return scaled(ns);
    }
    if (ns < 1_000_000) {
      return US_OFFSET + scaled(ns / 1_000);
    }
    long ms = ns / 1_000_000;
    if (ms >= 2000) {
      return MS_OFFSET + 11;
    }
    if (ms >= 1000) {
      return MS_OFFSET + 10;
    }
    return MS_OFFSET + scaled(ms);
  }

  private static int scaled(long v) {
    for (int i = 0; i < UPPER.length; i++) {
      if (v < UPPER[i]) {
        return i;
      }
    }
    return UPPER.length - 1;
  }

  /**
   * fio's {@code stat_calc_lat}: each bucket as a percentage of {@code total} I/Os; a bucket that
   * holds anything but rounds below 0.01% shows as 0.01%.
   */
  static double[] percentages(long[] counts, int from, int length, long total) {
    double[] out = new double[length];
    for (int i = 0; i < length; i++) {
      long c = counts[from + i];
      if (total == 0) {
        continue;
      }
      double pct = (double) c / (double) total * 100.0;
      if (pct < 0.01 && c != 0) {
        pct = 0.01;
      }
      out[i] = pct;
    }
    return out;
  }
}
