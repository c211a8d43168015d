package io.mqroute.actors.experiment;

import io.mqroute.actors.metrics.Direction;
import io.mqroute.actors.metrics.JobStats;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * One variant's headline numbers over all its job clones and both directions: the row of the comparison
 * table. Latencies are fio's {@code lat} (submission to reaped completion), in nanoseconds.
 */
public record Summary(
    double iops, double bwBytes, double meanNs, long p50Ns, long p99Ns, long p999Ns, long p9999Ns, long ios,
    long errors) {

  public static Summary of(List<JobStats> clones) {
    double iops = 0;
    double bw = 0;
    long ios = 0;
    long errors = 0;
    Histogram all = null;
    for (JobStats s : clones) {
      errors += s.totalErrors();
      for (Direction d : new Direction[] {Direction.READ, Direction.WRITE}) {
        iops += s.iops(d);
        bw += s.bwBytes(d);
        ios += s.direction(d).totalIos();
        if (s.direction(d).lat().count() > 0) {
          Histogram h = s.direction(d).lat().histogramCopy();
          if (all == null) {
            all = h;
          } else {
            all.add(h);
          }
        }
      }
    }
    if (all == null) {
      return new Summary(iops, bw, 0, 0, 0, 0, 0, ios, errors);
    }
    return new Summary(iops, bw, all.getMean(), all.getValueAtPercentile(50), all.getValueAtPercentile(99),
        all.getValueAtPercentile(99.9), all.getValueAtPercentile(99.99), ios, errors);
  }
}
