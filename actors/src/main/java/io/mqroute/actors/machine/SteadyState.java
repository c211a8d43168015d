package io.mqroute.actors.machine;

/**
 * fio's steady-state detection ({@code steadystate=}, {@code ss_dur}, {@code ss_ramp}, {@code
 * ss_interval}): every check interval fio's helper thread samples each job's IOPS, bandwidth and
 * mean completion latency since the last check; once the last {@code ss_dur} worth of samples has a
 * small enough slope or deviation, the job (with {@code group_reporting}: its whole group) is ended
 * (steadystate.c {@code steadystate_check}).
 *
 * @param metric what is judged
 * @param slope the least-squares slope of the window ({@code iops_slope}, ...) instead of its
 *     largest deviation from the mean ({@code iops}, ...)
 * @param percent the limit is a percentage of the window's mean
 * @param limit the threshold (IOPS, bytes/s, ns, or percent)
 * @param durationSeconds {@code ss_dur} in whole seconds (fio divides the microseconds by 10^6)
 * @param rampNanos {@code ss_ramp}: sampling starts one interval after this much of the job
 * @param intervalMs {@code ss_interval} in ms (at least 1000; the same for every job, as fio
 *     requires)
 */
public record SteadyState(
    Metric metric,
    boolean slope,
    boolean percent,
    double limit,
    long durationSeconds,
    long rampNanos,
    long intervalMs) {

  /** What fio's FIO_SS_IOPS, FIO_SS_BW and FIO_SS_LAT judge. */
  public enum Metric {
    IOPS,
    BW,
    LAT
  }

  public SteadyState {
    if (intervalMs < 1000 || durationSeconds * 1000 <= intervalMs) {
      throw new IllegalArgumentException(
          "ss_interval must be at least 1s and ss_dur longer than it");
    }
    if (rampNanos < 0 || !(limit >= 0)) {
      throw new IllegalArgumentException("ss_ramp and the limit must be >= 0");
    }
  }

  /** fio's {@code intervals = ss->dur / (ss_check_interval / 1000L)}: samples in the window. */
  int intervals() {
    return (int) (durationSeconds / (intervalMs / 1000L));
  }

  /**
   * One job's counters at a check: I/Os and bytes done, and the sum and count of its completion
   * latencies (fio's {@code io_blocks}, {@code io_bytes}, {@code clat_stat} mean × samples).
   */
  record Sample(int job, long ios, long bytes, double clatSum, long clatSamples) {}

  /**
   * fio's per-thread {@code struct steadystate_data}; with {@code group_reporting} only the group's
   * last job holds the window ({@code FIO_SS_DATA}, steadystate_setup).
   */
  static final class Tracker {
    final SteadyState ss;
    final boolean groupReporting;
    final int group;
    long epochNanos;
    boolean rampOver;
    boolean attained;
    boolean hasData;
    boolean bufferFull;
    int head;
    int tail;
    long[] iopsData;
    long[] bwData;
    long[] latData;
    long sumY;
    long sumXy;
    final long sumX;
    final long sumXSq;
    long oldestY;
    long prevTimeNanos;
    long prevIops;
    long prevBytes;
    double prevLatSum;
    long prevLatSamples;
    double criterion;

    Tracker(SteadyState ss, boolean groupReporting, int group) {
      this.ss = ss;
      this.groupReporting = groupReporting;
      this.group = group;
      this.rampOver = ss.rampNanos() == 0;
      int n = ss.intervals();
      this.sumX = (long) n * (n - 1) / 2;
      this.sumXSq = (long) (n - 1) * n * (2L * n - 1) / 6;
    }

    /** The job has started: fio's td->epoch, which backend.c copies into ss.prev_time. */
    void start(long nowNanos) {
      epochNanos = nowNanos;
      prevTimeNanos = nowNanos;
    }

    void allocate() {
      int n = ss.intervals();
      iopsData = new long[n];
      bwData = new long[n];
      latData = new long[n];
      hasData = true;
    }

    private long value(long iops, long bw, long lat) {
      return switch (ss.metric()) {
        case IOPS -> iops;
        case BW -> bw;
        case LAT -> lat;
      };
    }

    private long at(int i) {
      return value(iopsData[i], bwData[i], latData[i]);
    }

    /** steadystate_slope: true once the window's slope is inside the limit. */
    boolean slope(long iops, long bw, double lat) {
      int intervals = ss.intervals();
      bwData[tail] = bw;
      iopsData[tail] = iops;
      latData[tail] = (long) lat;
      long newVal = value(iops, bw, (long) lat);
      if (bufferFull || tail - head == intervals - 1) {
        if (!bufferFull) {
          sumY = 0;
          for (int i = 0; i < intervals; i++) {
            sumY += at(i);
            int j = (head + i) % intervals;
            sumXy += (long) i * at(j);
          }
          bufferFull = true;
        } else {
          sumY -= oldestY;
          sumY += newVal;
          sumXy = sumXy - sumY + intervals * newVal;
        }
        oldestY = at(head);
        double slope =
            (sumXy - (double) sumX * sumY / intervals)
                / (sumXSq - (double) sumX * sumX / intervals);
        // fio divides the uint64 sum_y by intervals as integers
        criterion = ss.percent() ? 100.0 * slope / (double) (sumY / intervals) : slope;
        double result = criterion * (criterion < 0.0 ? -1.0 : 1.0);
        if (result < ss.limit()) {
          return true;
        }
      }
      tail = (tail + 1) % intervals;
      if (tail <= head) {
        head = (head + 1) % intervals;
      }
      return false;
    }

    /** steadystate_deviation: true once the window's largest deviation is inside the limit. */
    boolean deviation(long iops, long bw, double lat) {
      int intervals = ss.intervals();
      bwData[tail] = bw;
      iopsData[tail] = iops;
      latData[tail] = (long) lat;
      if (bufferFull || tail - head == intervals - 1) {
        if (!bufferFull) {
          sumY = 0;
          for (int i = 0; i < intervals; i++) {
            sumY += at(i);
          }
          bufferFull = true;
        } else {
          sumY -= oldestY;
          sumY += at(tail);
        }
        oldestY = at(head);
        double mean = (double) sumY / intervals;
        double deviation = 0.0;
        for (int i = 0; i < intervals; i++) {
          double diff = at(i) - mean;
          deviation = Math.max(deviation, diff * (diff < 0.0 ? -1.0 : 1.0));
        }
        criterion = ss.percent() ? 100.0 * deviation / mean : deviation;
        if (criterion < ss.limit()) {
          return true;
        }
      }
      tail = (tail + 1) % intervals;
      if (tail == head) {
        head = (head + 1) % intervals;
      }
      return false;
    }
  }
}
