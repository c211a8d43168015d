package io.mqroute.experiment;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.DirectionStats;
import io.mqroute.metrics.JobStats;
import io.mqroute.metrics.LatencyStat;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * One variant's headline numbers over all its job clones and every direction: the row of the
 * comparison table. Latencies are fio's {@code lat} (submission to reaped completion), or {@code
 * clat} for a direction fio times only that way (the file-operation engines' calls), in
 * nanoseconds.
 *
 * <p>Computed like fio's own per-job numbers, so that a one-job variant's summary equals its fio
 * JSON: the mean is exact (the jobs' exact means weighted by their counts, not the histogram's
 * bucket mean) and a percentile is the merged histogram's value clamped into the samples' [min,
 * max].
 */
public record Summary(
    double iops,
    double bwBytes,
    double meanNs,
    long p50Ns,
    long p99Ns,
    long p999Ns,
    long p9999Ns,
    long ios,
    long errors) {

  public static Summary of(List<JobStats> clones) {
    double iops = 0;
    double bw = 0;
    long ios = 0;
    long errors = 0;
    double latSum = 0;
    long latCount = 0;
    long min = Long.MAX_VALUE;
    long max = 0;
    for (JobStats s : clones) {
      errors += s.totalErrors();
      for (Direction d : Direction.values()) {
        iops += s.iops(d);
        bw += s.bwBytes(d);
        ios += s.direction(d).totalIos();
        LatencyStat lat = latency(s.direction(d));
        if (lat.count() > 0) {
          latSum += lat.mean() * lat.count();
          latCount += lat.count();
          min = Math.min(min, lat.min());
          max = Math.max(max, lat.max());
        }
      }
    }
    Histogram all = histogram(clones).orElse(null);
    if (all == null) {
      return new Summary(iops, bw, 0, 0, 0, 0, 0, ios, errors);
    }
    return new Summary(
        iops,
        bw,
        latSum / latCount,
        at(all, 50, min, max),
        at(all, 99, min, max),
        at(all, 99.9, min, max),
        at(all, 99.99, min, max),
        ios,
        errors);
  }

  /**
   * The latencies of all the clones' I/Os ({@link #latency}, every direction) merged into one
   * histogram, or empty when nothing completed: the percentiles here and the latency curves.
   */
  public static Optional<Histogram> histogram(List<JobStats> clones) {
    Histogram all = null;
    for (JobStats s : clones) {
      for (Direction d : Direction.values()) {
        LatencyStat lat = latency(s.direction(d));
        if (lat.count() == 0) {
          continue;
        }
        Histogram h = lat.histogramCopy();
        if (all == null) {
          all = h;
        } else {
          all.add(h);
        }
      }
    }
    return Optional.ofNullable(all);
  }

  /**
   * The latency a direction's I/Os took: fio's {@code lat}, or its {@code clat} where fio records
   * only that (the file-operation engines time their calls as completion latencies).
   */
  public static LatencyStat latency(DirectionStats d) {
    return d.lat().count() > 0 ? d.lat() : d.clat();
  }

  /**
   * fio's rule ({@link LatencyStat#valueAtPercentile}): the histogram's value, never outside the
   * samples.
   */
  private static long at(Histogram h, double percentile, long min, long max) {
    return Math.max(min, Math.min(max, h.getValueAtPercentile(percentile)));
  }
}
