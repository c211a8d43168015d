package io.mqroute.metrics;

import java.util.Arrays;

/**
 * One of fio's log files ({@code write_lat_log}, {@code write_bw_log}, {@code write_iops_log}) in
 * fio's own format (iolog.c {@code flush_samples}, without {@code log_offset} and {@code
 * log_prio}): one line per entry, {@code time (ms), value, data direction (0 read, 1 write, 2
 * trim), block size (bytes, 0 when the job's sizes vary), priority (0)}. fio's fio2gnuplot,
 * fiologparser and fio_generate_plots read these files.
 */
final class FioLog {
  private long[] data = new long[64];
  private int n;

  void add(long timeMs, long value, int direction, long blockSize) {
    if (n + 4 > data.length) {
      data = Arrays.copyOf(data, data.length * 2);
    }
    data[n++] = timeMs;
    data[n++] = value;
    data[n++] = direction;
    data[n++] = blockSize;
  }

  int entries() {
    return n / 4;
  }

  String render() {
    StringBuilder sb = new StringBuilder(n * 6);
    for (int i = 0; i < n; i += 4) {
      sb.append(data[i])
          .append(", ")
          .append(data[i + 1])
          .append(", ")
          .append(data[i + 2])
          .append(", ")
          .append(data[i + 3])
          .append(", 0\n");
    }
    return sb.toString();
  }

  /** Averages per direction over windows of {@code avgMs} (fio's log_avg_msec). */
  static final class Averager {
    private final FioLog log;
    private final long avgNs;
    private final long blockSize;
    private final long[] sum = new long[3];
    private final long[] count = new long[3];
    private long startNs;
    private long next;

    Averager(FioLog log, long avgMs, long blockSize) {
      this.log = log;
      this.avgNs = avgMs * 1_000_000L;
      this.blockSize = blockSize;
    }

    void start(long nowNs) {
      startNs = nowNs;
      next = nowNs + avgNs;
    }

    void add(int direction, long value, long nowNs) {
      advance(nowNs);
      sum[direction] += value;
      count[direction]++;
    }

    void advance(long nowNs) {
      while (nowNs >= next) {
        for (int d = 0; d < count.length; d++) {
          if (count[d] > 0) {
            log.add((next - startNs) / 1_000_000L, sum[d] / count[d], d, blockSize);
            sum[d] = 0;
            count[d] = 0;
          }
        }
        next += avgNs;
      }
    }
  }
}
