package io.mqroute.metrics;

import org.HdrHistogram.Histogram;

/**
 * One latency series (slat, clat, lat or sync) in nanoseconds: exact count, min, max, mean and
 * standard deviation, plus an HdrHistogram for percentiles.
 *
 * <p>The summary is exact and computed the way fio's {@code add_stat_sample} does (Welford's
 * running mean and sum of squares; the reported deviation is the sample deviation, {@code
 * sqrt(S/(n-1))}). Percentiles come from the histogram: {@code new Histogram(1, 1 hour, 3)}, so a
 * percentile is within 0.1% of the true value (fio's own buckets are within about 0.8%). A
 * percentile is clamped into [min, max] so that p100 is the real maximum.
 *
 * <p>Memory and allocation: the histogram is created on the first sample (about 270 KB, sized for
 * one hour so that recording never resizes or allocates), with a 2 KB buffer of pending samples. A
 * value above one hour is recorded in the histogram as one hour and counted in {@link
 * #clampedCount()}; min/max/mean stay exact. Not thread-safe: one job's completions are recorded by
 * one actor.
 */
public final class LatencyStat {

  /** The largest value the histogram tracks: one hour in nanoseconds. */
  public static final long HIGHEST_TRACKABLE_NS = 3_600_000_000_000L;

  /** HdrHistogram precision: 3 significant digits. */
  public static final int SIGNIFICANT_DIGITS = 3;

  private long count;
  private long min = Long.MAX_VALUE;
  private long max;
  private double mean;
  private double sumSquares;
  private long clamped;
  private Histogram histogram;

  /**
   * Samples not yet in the histogram. A simulation records a sample between much other work, which
   * evicts the histogram's counts from the cache each time (a tenth of {@code mqroute bench}'s time
   * went to three records per request); a batch loads them once per {@value #BATCH} samples. Every
   * reader of the histogram empties it first, so nothing it reports changes.
   */
  private long[] pending;

  private int pendingCount;

  private static final int BATCH = 256;

  /** Adds one sample; {@code ns} must be zero or positive. */
  void record(long ns) {
    if (ns < 0) {
      throw new IllegalArgumentException("latency must be >= 0 ns, got " + ns);
    }
    if (ns > max) {
      max = ns;
    }
    if (ns < min) {
      min = ns;
    }
    double delta = ns - mean;
    if (delta != 0.0) {
      mean += delta / (count + 1.0);
      sumSquares += delta * (ns - mean);
    }
    count++;
    if (pending == null) {
      // the histogram is made with the first sample, as before the batches: what a run's memory
      // estimate (MemoryEstimate.HISTOGRAM_BYTES) counts on
      histogram = new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
      pending = new long[BATCH];
    }
    if (ns > HIGHEST_TRACKABLE_NS) {
      clamped++;
      pending[pendingCount++] = HIGHEST_TRACKABLE_NS;
    } else {
      pending[pendingCount++] = ns;
    }
    if (pendingCount == BATCH) {
      flush();
    }
  }

  /** Moves the pending samples into the histogram (made with the first one). */
  private void flush() {
    for (int i = 0; i < pendingCount; i++) {
      histogram.recordValue(pending[i]);
    }
    pendingCount = 0;
  }

  /**
   * Adds another series into this one (fio's {@code __sum_stat}: the parallel variance formula).
   */
  void add(LatencyStat other) {
    if (other.count == 0) {
      return;
    }
    flush();
    other.flush();
    if (count == 0) {
      mean = other.mean;
      sumSquares = other.sumSquares;
    } else {
      double delta = other.mean - mean;
      double total = (double) count + other.count;
      mean = (other.mean * other.count + mean * count) / total;
      sumSquares =
          other.sumSquares + sumSquares + delta * delta * ((double) count * other.count) / total;
    }
    min = Math.min(min, other.min);
    max = Math.max(max, other.max);
    count += other.count;
    clamped += other.clamped;
    if (histogram == null) {
      histogram = new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS);
    }
    histogram.add(other.histogram);
  }

  /** Number of samples (fio's {@code N}). */
  public long count() {
    return count;
  }

  /** Smallest sample in ns, 0 when there is none. */
  public long min() {
    return count == 0 ? 0 : min;
  }

  /** Largest sample in ns, 0 when there is none. */
  public long max() {
    return max;
  }

  /** Mean in ns, 0 when there is no sample. */
  public double mean() {
    return mean;
  }

  /** Sample standard deviation in ns (fio's {@code stdev}), 0 with fewer than two samples. */
  public double stddev() {
    return count > 1 ? Math.sqrt(sumSquares / (count - 1.0)) : 0.0;
  }

  /** Welford's running sum of squared deviations; exposed for digests. */
  double sumSquares() {
    return sumSquares;
  }

  /** Samples above one hour, recorded in the histogram as one hour. */
  public long clampedCount() {
    return clamped;
  }

  /**
   * The value at a percentile in ns: the smallest recorded value such that {@code percentile}% of
   * the samples are at or below it (HdrHistogram's highest equivalent value of that sample's
   * bucket; fio picks the same rank but reports its bucket's midpoint, unclamped), clamped into
   * [min, max]. 0 when there is no sample.
   */
  public long valueAtPercentile(double percentile) {
    if (count == 0) {
      return 0;
    }
    flush();
    long value = histogram.getValueAtPercentile(percentile);
    return Math.max(min, Math.min(max, value));
  }

  /**
   * A copy of the histogram (an empty one when there is no sample), e.g. for plots or .hgrm files.
   */
  public Histogram histogramCopy() {
    flush();
    return histogram == null
        ? new Histogram(1, HIGHEST_TRACKABLE_NS, SIGNIFICANT_DIGITS)
        : histogram.copy();
  }

  /** The live histogram, or null before the first sample; for digests only. */
  Histogram histogramOrNull() {
    flush();
    return histogram;
  }
}
