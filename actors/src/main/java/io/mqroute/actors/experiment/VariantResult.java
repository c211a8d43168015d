package io.mqroute.actors.experiment;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.runtime.RunStats;
import java.util.List;

/**
 * One variant's runs at one sweep point.
 *
 * @param result    the first replication (the one whose fio output is printed)
 * @param digest    hex digest over every replication's results (same seed → same digest, in any JVM)
 * @param wallNanos wall-clock time of all replications (reported, never part of a digest)
 * @param replicas  the headline numbers of each replication, in seed order
 */
public record VariantResult(Variant variant, MachineResult result, RunStats stats, String digest,
    long wallNanos, List<Summary> replicas, List<MachineResult> all) {

  /** Mean (and 95% CI) of a metric over the replications. */
  public Aggregate aggregate(java.util.function.ToDoubleFunction<Summary> metric) {
    return Aggregate.of(replicas, metric);
  }

  /** True if any replication stalled. */
  public boolean stalled() {
    return all.stream().anyMatch(r -> r.stall() != null);
  }

  /** True if no replication broke an invariant, counting a stall as expected where the variant says so. */
  public boolean healthy() {
    return all.stream().allMatch(r -> r.violations().isEmpty() && (r.stall() == null || variant.expectStall()));
  }
}
