package io.mqroute.experiment.report;

import io.mqroute.experiment.Summary;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import io.mqroute.metrics.LatencyStat;
import java.util.List;
import java.util.Optional;
import org.HdrHistogram.Histogram;

/**
 * One variant's total latencies ({@code lat}, or {@code clat} where fio has only that; every
 * direction, all jobs) as a single histogram.
 */
final class LatencyCurve {
  private LatencyCurve() {}

  /**
   * The merged histogram, or empty when nothing completed. These are the samples {@link
   * io.mqroute.experiment.Summary} reads, so the curve and the table agree.
   */
  static Optional<Histogram> of(List<JobStats> clones) {
    Histogram all = null;
    for (JobStats s : clones) {
      for (Direction d : Direction.values()) {
        LatencyStat lat = Summary.latency(s.direction(d));
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
}
