package io.mqroute.metrics;

/**
 * fio's periodic bandwidth and IOPS samples of one job (stat.c {@code add_bw_samples}, {@code
 * add_iops_samples}): every {@code bwavgtime} ms the bytes completed since the last sample become
 * one bandwidth sample in KiB/s ({@code bytes * 1000 / ms / 1024}), every {@code iopsavgtime} ms
 * the I/Os one IOPS sample; {@code bw_min/max/mean/dev/samples} and {@code iops_*} summarise them
 * (fio's calc_lat: the deviation divides by n - 1). A window in which a direction completed nothing
 * adds no sample for it ({@code __add_samples}: "No entries for interval"). Only whole windows
 * inside the measurement window count.
 *
 * <p>Per direction (read, write, trim). Not thread-safe; records do not allocate.
 */
final class Samples {

  /** Running statistics of one series. */
  static final class Series {
    long n;
    long min = Long.MAX_VALUE;
    long max;
    double mean;
    double m2;

    void add(long v) {
      n++;
      min = Math.min(min, v);
      max = Math.max(max, v);
      double d = v - mean;
      mean += d / n;
      m2 += d * (v - mean);
    }

    void merge(Series o) {
      if (o.n == 0) {
        return;
      }
      if (n == 0) {
        n = o.n;
        min = o.min;
        max = o.max;
        mean = o.mean;
        m2 = o.m2;
        return;
      }
      long total = n + o.n;
      double d = o.mean - mean;
      mean += d * o.n / total;
      m2 += o.m2 + d * d * n * o.n / total;
      n = total;
      min = Math.min(min, o.min);
      max = Math.max(max, o.max);
    }

    long minOrZero() {
      return n == 0 ? 0 : min;
    }

    double stddev() {
      return n > 1 ? Math.sqrt(m2 / (n - 1)) : 0.0;
    }
  }

  private final long bwPeriodNs;
  private final long iopsPeriodNs;
  private final long bwMs;
  private final long iopsMs;
  final Series[] bw = {new Series(), new Series(), new Series()};
  final Series[] iops = {new Series(), new Series(), new Series()};
  private final long[] bytes = new long[3];
  private final long[] ios = new long[3];
  private long nextBw;
  private long nextIops;
  private boolean started;

  /** Called for each sample: (time ms since start, value, direction 0/1/2, block size). */
  interface Sink {
    void sample(long timeMs, long value, int direction);
  }

  private final Sink bwSink;
  private final Sink iopsSink;
  private long startNs;

  Samples(long bwAvgMs, long iopsAvgMs, Sink bwSink, Sink iopsSink) {
    this.bwPeriodNs = bwAvgMs * 1_000_000L;
    this.iopsPeriodNs = iopsAvgMs * 1_000_000L;
    this.bwMs = bwAvgMs;
    this.iopsMs = iopsAvgMs;
    this.bwSink = bwSink;
    this.iopsSink = iopsSink;
  }

  void start(long nowNs) {
    started = true;
    startNs = nowNs;
    nextBw = nowNs + bwPeriodNs;
    nextIops = nowNs + iopsPeriodNs;
  }

  /** Takes the samples due by {@code nowNs}, then counts {@code count} I/Os of {@code n} bytes. */
  void record(int direction, long n, long count, long nowNs) {
    advance(nowNs);
    bytes[direction] += n;
    ios[direction] += count;
  }

  /** Takes the samples due by {@code nowNs} (the end of the measurement window). */
  void advance(long nowNs) {
    if (!started) {
      return;
    }
    while (nowNs >= nextBw) {
      long t = (nextBw - startNs) / 1_000_000L;
      for (int d = 0; d < bytes.length; d++) {
        if (bytes[d] == 0) {
          continue;
        }
        long kib = bytes[d] * 1000 / bwMs / 1024; // fio: delta * 1000 / spent / 1024
        bw[d].add(kib);
        if (bwSink != null) {
          bwSink.sample(t, kib, d);
        }
        bytes[d] = 0;
      }
      nextBw += bwPeriodNs;
    }
    while (nowNs >= nextIops) {
      long t = (nextIops - startNs) / 1_000_000L;
      for (int d = 0; d < bytes.length; d++) {
        if (ios[d] == 0) {
          continue;
        }
        long v = ios[d] * 1000 / iopsMs;
        iops[d].add(v);
        if (iopsSink != null) {
          iopsSink.sample(t, v, d);
        }
        ios[d] = 0;
      }
      nextIops += iopsPeriodNs;
    }
  }

  void merge(Samples o) {
    for (int d = 0; d < bytes.length; d++) {
      bw[d].merge(o.bw[d]);
      iops[d].merge(o.iops[d]);
    }
  }
}
