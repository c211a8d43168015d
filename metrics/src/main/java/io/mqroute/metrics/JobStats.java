package io.mqroute.metrics;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The measurements of one fio job clone, the way fio keeps them ({@code struct thread_stat});
 * several clones merge into one for {@code group_reporting}.
 *
 * <p>Life cycle: {@link #openWindow(long)} when measuring starts (after {@code ramp_time}), then
 * {@link #record} for every completion, then {@link #closeWindow(long)}. Completions recorded while
 * the window is not open are ignored (so ramp-up is left out as fio leaves it out) and counted in
 * {@link #ignoredOutsideWindow()}. All times are virtual nanoseconds supplied by the caller.
 *
 * <p>Derived rates follow fio exactly: the runtime is the window in milliseconds rounded up (at
 * least 1 when anything completed), {@code iops = 1000 * ios / runtime_ms}, {@code bw_bytes = 1000
 * * bytes / runtime_ms} (integer division), {@code bw = bw_bytes / 1024} (KiB/s).
 *
 * <p>{@code record} does not allocate, except that each latency series creates its histogram on its
 * first sample. Not thread-safe: one job's completions are recorded by one actor.
 */
public final class JobStats {

  /** Pass as {@code slatNs} when the submission latency was not measured (fio's sync engines). */
  public static final long NO_SLAT = -1;

  /** Status of a successful completion. */
  public static final int OK = 0;

  /** Error codes are errno values with magnitude below this. */
  public static final int ERRNO_LIMIT = 256;

  private static final long NS_PER_MS = 1_000_000L;
  private static final long NS_PER_US = 1_000L;

  private final JobInfo info;
  private final EnumMap<Direction, DirectionStats> directions = new EnumMap<>(Direction.class);
  private final LatencyStat sync = new LatencyStat();
  private final long[] latencyBuckets = new long[LatencyBuckets.SIZE];
  private final long[] depthCounts = new long[DepthBuckets.SIZE];
  private final long[] errorCounts = new long[ERRNO_LIMIT];
  private int members = 1;
  private long totalErrors;
  private int firstError;
  private long ignored;
  private long windowStartNs;
  private long windowEndNs;
  private boolean opened;
  private boolean closed;
  private long mergedRuntimeNs = -1;
  private long jobRuntimeMs;

  /** fio's bw and IOPS samples, and the log files the job asked for (null when none). */
  private final Samples samples;

  private final FioLog latLog;
  private final FioLog clatLog;
  private final FioLog slatLog;
  private final FioLog bwLog;
  private final FioLog iopsLog;
  private final FioLog.Averager[] averagers;
  private long sampleStartNs;

  /** fio's rate_min per direction (bytes/s, 0: none), checked every ratecycle. */
  private final double[] minRate = new double[2];

  private long rateCycleNs;
  private long nextRateCheck;
  private final long[] cycleBytes = new long[2];
  private int rateError;

  /** Empty statistics for one job clone. */
  public JobStats(JobInfo info) {
    this.info = Objects.requireNonNull(info, "info");
    for (Direction d : Direction.values()) {
      directions.put(d, new DirectionStats());
    }
    ReportOptions r = info.report();
    this.latLog = r.latLog() != null ? new FioLog() : null;
    this.clatLog = r.latLog() != null ? new FioLog() : null;
    this.slatLog = r.latLog() != null ? new FioLog() : null;
    this.bwLog = r.bwLog() != null ? new FioLog() : null;
    this.iopsLog = r.iopsLog() != null ? new FioLog() : null;
    // with log_avg_msec, fio logs bandwidth and IOPS at each bwavgtime / iopsavgtime sample (block
    // size 0) and averages latencies over log_avg_msec; without it, one entry per I/O
    boolean averaged = r.logAvgMs() > 0;
    this.samples =
        new Samples(
            r.bwAvgMs(),
            r.iopsAvgMs(),
            averaged && bwLog != null ? (t, v, d) -> bwLog.add(t, v, d, 0) : null,
            averaged && iopsLog != null ? (t, v, d) -> iopsLog.add(t, v, d, 0) : null);
    if (averaged && latLog != null) {
      averagers =
          new FioLog.Averager[] {
            new FioLog.Averager(latLog, r.logAvgMs(), 0),
            new FioLog.Averager(clatLog, r.logAvgMs(), 0),
            new FioLog.Averager(slatLog, r.logAvgMs(), 0)
          };
    } else {
      averagers = null;
    }
  }

  /** Starts measuring at {@code startNs}; call once, when ramp-up is over. */
  public void openWindow(long startNs) {
    if (opened) {
      throw new IllegalStateException(
          "measurement window of job '" + info.name() + "' already opened");
    }
    opened = true;
    windowStartNs = startNs;
    sampleStartNs = startNs;
    samples.start(startNs);
    // fio's check_min_rate: the first check once ratecycle has passed since the start
    nextRateCheck = startNs + rateCycleNs;
    if (averagers != null) {
      for (FioLog.Averager a : averagers) {
        a.start(startNs);
      }
    }
  }

  /**
   * Stops measuring at {@code endNs} ({@code >= } the start); call once, after {@link #openWindow}.
   */
  public void closeWindow(long endNs) {
    if (!opened || closed) {
      throw new IllegalStateException(
          "measurement window of job '"
              + info.name()
              + (closed ? "' already closed" : "' was never opened"));
    }
    if (endNs < windowStartNs) {
      throw new IllegalArgumentException(
          "window end " + endNs + " is before its start " + windowStartNs);
    }
    samples.advance(endNs);
    checkRate(endNs);
    if (averagers != null) {
      for (FioLog.Averager a : averagers) {
        a.advance(endNs);
      }
    }
    closed = true;
    windowEndNs = endNs;
    jobRuntimeMs = (endNs - windowStartNs) / NS_PER_MS;
  }

  /**
   * Records one completed read or write.
   *
   * @param direction {@link Direction#READ} or {@link Direction#WRITE}
   * @param bytes bytes transferred
   * @param slatNs submission latency in ns, or {@link #NO_SLAT} when not measured (sync engines)
   * @param clatNs completion latency in ns
   * @param status {@link #OK}, or an errno (positive, or negative kernel style such as -22); a
   *     failed request counts only as an error
   */
  public void record(Direction direction, long bytes, long slatNs, long clatNs, int status) {
    DirectionStats d = counted(direction, status);
    if (d == null) {
      return;
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
    }
    d.recordOk(bytes, slatNs, clatNs);
    latencyBuckets[LatencyBuckets.index(clatNs)]++;
  }

  /**
   * The statistics a successful completion of {@code direction} goes to, or null when it is not
   * counted there: outside the window (ignored) or failed (an error).
   */
  private DirectionStats counted(Direction direction, int status) {
    if (!isOpen()) {
      ignored++;
      return null;
    }
    DirectionStats d = directions.get(direction);
    if (status != OK) {
      countError(status);
      d.recordError();
      return null;
    }
    return d;
  }

  /** The errno fio ends a job with when it misses rate_min ({@code td_verror(td, EIO, ...)}). */
  public static final int EIO = 5;

  /**
   * fio's {@code rate_min} / {@code rate_iops_min} (in bytes/s per direction, 0 for none), checked
   * as fio's check_min_rate does: over each {@code ratecycle} after the first, a direction that
   * moved less is an error, EIO. fio then ends the job; here the job goes on (the machine's jobs
   * are not stopped by their statistics), the error is reported as fio reports it.
   */
  public void checkMinRate(double readBytesPerSec, double writeBytesPerSec, long cycleNs) {
    minRate[0] = readBytesPerSec;
    minRate[1] = writeBytesPerSec;
    rateCycleNs = cycleNs;
  }

  private void checkRate(long nowNs) {
    if (rateCycleNs <= 0 || (minRate[0] <= 0 && minRate[1] <= 0)) {
      return;
    }
    while (nowNs >= nextRateCheck) {
      for (int d = 0; d < 2; d++) {
        // fio checks only the directions that have done I/O (bytes_done[ddir])
        boolean active = directions.get(d == 0 ? Direction.READ : Direction.WRITE).ioBytes() > 0;
        if (active && minRate[d] > 0 && cycleBytes[d] * 1e9 / rateCycleNs < minRate[d]) {
          rateError = EIO;
        }
        cycleBytes[d] = 0;
      }
      nextRateCheck += rateCycleNs;
    }
  }

  /**
   * {@link #record} for a completion at {@code nowNs}: also feeds fio's bandwidth and IOPS samples
   * and the job's log files.
   */
  public void recordAt(
      Direction direction, long bytes, long slatNs, long clatNs, int status, long nowNs) {
    if (isOpen() && status == OK) {
      int d = direction.ordinal();
      sample(d, bytes, 1, nowNs);
      long lat = clatNs + Math.max(0, slatNs);
      long t = (nowNs - sampleStartNs) / NS_PER_MS;
      if (info.report().logAvgMs() == 0) {
        if (bwLog != null) { // fio's per-I/O bw sample: bytes * 1000000 / lat_ns
          bwLog.add(t, lat == 0 ? 0 : bytes * 1_000_000L / lat, d, bytes);
        }
        if (iopsLog != null) {
          iopsLog.add(t, 1, d, bytes);
        }
      }
      if (latLog != null) {
        if (averagers != null) {
          averagers[0].add(d, lat, nowNs);
          averagers[1].add(d, clatNs, nowNs);
          if (slatNs >= 0) {
            averagers[2].add(d, slatNs, nowNs);
          }
        } else {
          latLog.add(t, lat, d, bytes);
          clatLog.add(t, clatNs, d, bytes);
          if (slatNs >= 0) {
            slatLog.add(t, slatNs, d, bytes);
          }
        }
      }
    }
    record(direction, bytes, slatNs, clatNs, status);
  }

  /**
   * One system call of fio's file-operation engines (fileoperations.c: the create, stat or delete
   * done when fio opens a file): fio records its time as a completion latency sample of the job's
   * direction ({@code add_clat_sample}) and nothing else: no I/O, no bytes, no {@code lat} or
   * {@code slat}, no latency bucket ({@code FIO_NOSTATS}). A failed call is an error.
   */
  public void recordCall(Direction direction, long clatNs, int status, long nowNs) {
    DirectionStats d = counted(direction, status);
    if (d == null) {
      return;
    }
    d.recordClat(clatNs);
    if (latLog != null) {
      long t = (nowNs - sampleStartNs) / NS_PER_MS;
      if (averagers != null) {
        averagers[1].add(direction.ordinal(), clatNs, nowNs);
      } else {
        clatLog.add(t, clatNs, direction.ordinal(), 0);
      }
    }
  }

  /**
   * {@code count} I/Os of {@code bytes} in all that an engine pretends to do ({@code FIO_FAKEIO},
   * the file-operation engines): fio counts them ({@code total_ios}, {@code io_bytes}, bandwidth
   * and IOPS samples) but records no latency for them ({@code FIO_NOSTATS}).
   */
  public void recordFakeIos(Direction direction, long count, long bytes, long nowNs) {
    if (!isOpen()) {
      ignored += count;
      return;
    }
    directions.get(direction).recordIos(count, bytes);
    sample(direction.ordinal(), bytes, count, nowNs);
  }

  /**
   * {@code count} I/Os of {@code bytes} in all for fio's bandwidth and IOPS samples and rate_min.
   */
  private void sample(int d, long bytes, long count, long nowNs) {
    samples.record(d, bytes, count, nowNs);
    checkRate(nowNs);
    if (d < cycleBytes.length) { // rate_min: reads and writes (the model has no trim minimum)
      cycleBytes[d] += bytes;
    }
  }

  /**
   * fio's log files of this job clone, file name to content: {@code PREFIX_lat.N.log}, {@code
   * _clat}, {@code _slat} (write_lat_log), {@code PREFIX_bw.N.log}, {@code PREFIX_iops.N.log}, N
   * the clone's number as fio numbers them (per_job_logs).
   */
  public Map<String, String> logFiles() {
    Map<String, String> out = new LinkedHashMap<>();
    ReportOptions r = info.report();
    int n = info.pid();
    if (latLog != null) {
      out.put(r.latLog() + "_lat." + n + ".log", latLog.render());
      out.put(r.latLog() + "_clat." + n + ".log", clatLog.render());
      if (slatLog.entries() > 0) {
        out.put(r.latLog() + "_slat." + n + ".log", slatLog.render());
      }
    }
    if (bwLog != null) {
      out.put(r.bwLog() + "_bw." + n + ".log", bwLog.render());
    }
    if (iopsLog != null) {
      out.put(r.iopsLog() + "_iops." + n + ".log", iopsLog.render());
    }
    return out;
  }

  /**
   * fio's {@code bw_min, bw_max, bw_mean, bw_dev, bw_samples} (KiB/s) of a direction: {@code {min,
   * max, mean, dev, samples}}.
   */
  public double[] bwSamples(Direction direction) {
    return series(samples.bw, direction);
  }

  /** fio's {@code iops_min, iops_max, iops_mean, iops_stddev, iops_samples}. */
  public double[] iopsSamples(Direction direction) {
    return series(samples.iops, direction);
  }

  private static double[] series(Samples.Series[] s, Direction direction) {
    Samples.Series x = s[direction.ordinal()];
    return new double[] {x.minOrZero(), x.max, x.n == 0 ? 0 : x.mean, x.stddev(), x.n};
  }

  /**
   * Records one completed fsync (fio's {@code sync} object); {@code latNs} is its total latency.
   */
  public void recordSync(long latNs, int status) {
    if (!isOpen()) {
      ignored++;
      return;
    }
    if (status != OK) {
      countError(status);
      return;
    }
    sync.record(latNs);
  }

  /**
   * Samples the queue depth when a request is issued: the requests in flight including this one.
   * Optional; without samples the {@code IO depths} line shows the configured depth at 100%.
   */
  public void markDepth(int inFlight) {
    if (isOpen()) {
      depthCounts[DepthBuckets.index(Math.max(1, inFlight))]++;
    }
  }

  private boolean isOpen() {
    return opened && !closed;
  }

  private void countError(int status) {
    int errno = Math.abs(status);
    if (errno >= ERRNO_LIMIT) {
      throw new IllegalArgumentException(
          "status " + status + " is not an errno (|status| < " + ERRNO_LIMIT + ")");
    }
    if (totalErrors == 0) {
      firstError = errno;
    }
    totalErrors++;
    errorCounts[errno]++;
  }

  /**
   * fio's {@code group_reporting}: the members added into one set of statistics. The result has the
   * first member's {@link JobInfo}, the sum of the counters and histograms, the longest member
   * runtime (fio's rule), and {@code members()} equal to the number of clones merged.
   */
  public static JobStats merge(List<JobStats> group) {
    if (group.isEmpty()) {
      throw new IllegalArgumentException("cannot merge an empty group");
    }
    JobStats merged = new JobStats(group.get(0).info);
    merged.members = 0;
    merged.opened = true;
    merged.closed = true;
    merged.windowStartNs = Long.MAX_VALUE;
    merged.windowEndNs = Long.MIN_VALUE;
    merged.mergedRuntimeNs = 0;
    for (JobStats s : group) {
      merged.members += s.members;
      merged.samples.merge(s.samples);
      for (Direction d : Direction.values()) {
        merged.directions.get(d).add(s.directions.get(d));
      }
      merged.sync.add(s.sync);
      for (int i = 0; i < LatencyBuckets.SIZE; i++) {
        merged.latencyBuckets[i] += s.latencyBuckets[i];
      }
      for (int i = 0; i < DepthBuckets.SIZE; i++) {
        merged.depthCounts[i] += s.depthCounts[i];
      }
      for (int i = 0; i < ERRNO_LIMIT; i++) {
        merged.errorCounts[i] += s.errorCounts[i];
      }
      if (merged.totalErrors == 0 && s.totalErrors > 0) {
        merged.firstError = s.firstError;
      }
      merged.totalErrors += s.totalErrors;
      merged.ignored += s.ignored;
      merged.jobRuntimeMs += s.jobRuntimeMs;
      merged.mergedRuntimeNs = Math.max(merged.mergedRuntimeNs, s.runtimeNs());
      if (s.opened) {
        merged.windowStartNs = Math.min(merged.windowStartNs, s.windowStartNs);
        merged.windowEndNs =
            Math.max(merged.windowEndNs, s.closed ? s.windowEndNs : s.windowStartNs);
      }
    }
    if (merged.windowStartNs == Long.MAX_VALUE) {
      merged.windowStartNs = 0;
      merged.windowEndNs = 0;
    }
    return merged;
  }

  /** Identity and report settings of this job. */
  public JobInfo info() {
    return info;
  }

  /** Number of clones in these statistics: 1, or the group size after {@link #merge}. */
  public int members() {
    return members;
  }

  /** The measurements of one direction. */
  public DirectionStats direction(Direction direction) {
    return directions.get(direction);
  }

  /** fsync latencies. */
  public LatencyStat sync() {
    return sync;
  }

  /**
   * Start of the measurement window in virtual ns (for a merged group: the earliest member start).
   */
  public long windowStartNs() {
    return windowStartNs;
  }

  /** End of the measurement window in virtual ns (for a merged group: the latest member end). */
  public long windowEndNs() {
    return windowEndNs;
  }

  /**
   * The measured time in ns: the window length, 0 if never opened, the longest member's for a
   * merged group. Fails while the window is open, since the runtime is not known yet.
   */
  public long runtimeNs() {
    if (mergedRuntimeNs >= 0) {
      return mergedRuntimeNs;
    }
    if (!opened) {
      return 0;
    }
    if (!closed) {
      throw new IllegalStateException(
          "measurement window of job '" + info.name() + "' is still open");
    }
    return windowEndNs - windowStartNs;
  }

  /**
   * fio's per-direction {@code runtime} in ms: 0 if the direction did nothing, else at least 1.
   * Rounded up, as fio's {@code update_runtime} does ({@code (elapsed_us + 999) / 1000} on the
   * elapsed time truncated to whole microseconds), so a 29.8775 ms window reports 30 ms; only
   * {@link #jobRuntimeMs} rounds down. For a merged group this rounds the longest member's time,
   * which equals fio's maximum of the members' rounded runtimes since rounding up keeps the order.
   */
  public long runtimeMs(Direction direction) {
    if (directions.get(direction).totalIos() == 0) {
      return 0;
    }
    long elapsedUs = runtimeNs() / NS_PER_US;
    return Math.max(1, (elapsedUs + 999) / 1000);
  }

  /** fio's {@code job_runtime} in ms: the sum of the members' windows. */
  public long jobRuntimeMs() {
    return jobRuntimeMs;
  }

  /** fio's {@code iops}: {@code 1000.0 * total_ios / runtime_ms}. */
  public double iops(Direction direction) {
    long runt = runtimeMs(direction);
    return runt == 0 ? 0.0 : 1000.0 * directions.get(direction).totalIos() / runt;
  }

  /** fio's {@code bw_bytes} in bytes/s: {@code 1000 * io_bytes / runtime_ms}, integer division. */
  public long bwBytes(Direction direction) {
    long runt = runtimeMs(direction);
    return runt == 0 ? 0 : 1000L * directions.get(direction).ioBytes() / runt;
  }

  /** fio's {@code bw} in KiB/s: {@code bw_bytes / 1024}. */
  public long bwKiB(Direction direction) {
    return bwBytes(direction) / 1024;
  }

  /** Failed requests (reads, writes and syncs). */
  public long totalErrors() {
    return totalErrors;
  }

  /** The errno of the first failure recorded, 0 if none (fio's {@code first_error}). */
  public int firstError() {
    return firstError != 0 ? firstError : rateError;
  }

  /** Failures per errno, ascending by errno, only those that occurred. */
  public Map<Integer, Long> errorCounts() {
    Map<Integer, Long> out = new TreeMap<>();
    for (int i = 0; i < ERRNO_LIMIT; i++) {
      if (errorCounts[i] != 0) {
        out.put(i, errorCounts[i]);
      }
    }
    return out;
  }

  /** Completions that arrived while the window was not open (ramp-up, or after the end). */
  public long ignoredOutsideWindow() {
    return ignored;
  }

  /** Completed reads and writes together (fio's denominator for the latency buckets). */
  public long totalIos() {
    return directions.get(Direction.READ).totalIos()
        + directions.get(Direction.WRITE).totalIos()
        + directions.get(Direction.TRIM).totalIos();
  }

  /** Copy of the 32 latency bucket counts (10 ns, 10 µs, 12 ms; see {@link LatencyBuckets}). */
  public long[] latencyBucketCounts() {
    return latencyBuckets.clone();
  }

  /** Copy of the 7 sampled depth counts (see {@link #markDepth}). */
  public long[] depthCounts() {
    return depthCounts.clone();
  }

  /** The {@code IO depths} percentages for 1, 2, 4, 8, 16, 32, >=64. */
  public double[] depthPercentages() {
    return DepthBuckets.percentages(depthCounts, info.iodepth());
  }
}
