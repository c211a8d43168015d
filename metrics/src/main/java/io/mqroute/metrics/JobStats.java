package io.mqroute.metrics;

import java.util.EnumMap;
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

  /** Empty statistics for one job clone. */
  public JobStats(JobInfo info) {
    this.info = Objects.requireNonNull(info, "info");
    for (Direction d : Direction.values()) {
      directions.put(d, new DirectionStats());
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
    if (!isOpen()) {
      ignored++;
      return;
    }
    DirectionStats d = directions.get(direction);
    if (status != OK) {
      countError(status);
      d.recordError();
      return;
    }
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0, got " + bytes);
    }
    d.recordOk(bytes, slatNs, clatNs);
    latencyBuckets[LatencyBuckets.index(clatNs)]++;
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
    return firstError;
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
