package io.mqroute.experiment;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.runtime.RunStats;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * One variant's runs at one sweep point.
 *
 * @param result the first replication (seed = the experiment's seed): the one whose fio text and
 *     JSON and per-queue and per-core details are reported
 * @param all every replication's result, in seed order
 * @param digest hex digest over every replication's results (same seed → same digest, in any JVM)
 * @param wallNanos wall-clock time of all replications (reported, never part of a digest)
 * @param replicas the headline numbers of each replication, in seed order
 */
public record VariantResult(
    Variant variant,
    MachineResult result,
    RunStats stats,
    String digest,
    long wallNanos,
    List<Summary> replicas,
    List<MachineResult> all) {

  /** Mean (and 95% CI) of a metric over the replications. */
  public Aggregate aggregate(ToDoubleFunction<Summary> metric) {
    return Aggregate.of(replicas, metric);
  }

  public int replications() {
    return replicas.size();
  }

  /**
   * The headline numbers every summary output shows (comparison table, result.json's summary,
   * results.csv, plots): the run's own with one replication, otherwise the mean of each metric over
   * the replications (percentiles, I/O and error counts rounded to whole numbers).
   */
  public Summary summary() {
    if (replicas.size() == 1) {
      return replicas.get(0);
    }
    return new Summary(
        aggregate(Summary::iops).mean(),
        aggregate(Summary::bwBytes).mean(),
        aggregate(Summary::meanNs).mean(),
        Math.round(aggregate(x -> x.p50Ns()).mean()),
        Math.round(aggregate(x -> x.p99Ns()).mean()),
        Math.round(aggregate(x -> x.p999Ns()).mean()),
        Math.round(aggregate(x -> x.p9999Ns()).mean()),
        Math.round(aggregate(x -> x.ios()).mean()),
        Math.round(aggregate(x -> x.errors()).mean()));
  }

  /**
   * The worst {@link ResultJson#status} of the replications: a stall before a violation before ok.
   */
  public String status() {
    List<String> statuses = all.stream().map(ResultJson::status).toList();
    return statuses.contains("STALL")
        ? "STALL"
        : statuses.contains("VIOLATION") ? "VIOLATION" : "ok";
  }

  /** True if any replication stalled. */
  public boolean stalled() {
    return all.stream().anyMatch(r -> r.stall() != null);
  }

  /**
   * True if no replication broke an invariant, counting a stall as expected where the variant says
   * so.
   */
  public boolean healthy() {
    return all.stream()
        .allMatch(r -> r.violations().isEmpty() && (r.stall() == null || variant.expectStall()));
  }
}
