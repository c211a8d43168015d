package io.mqroute.actors.machine;

import io.mqroute.actors.metrics.JobStats;
import java.util.List;

/**
 * What a machine run produced.
 *
 * @param jobs per job clone, in plan order
 * @param little per job clone, its Little's-law accounting ({@link LittlesLaw#notEvaluated()} for a
 *     job that never finished)
 * @param violations broken invariants (empty on a healthy run)
 * @param stall the liveness report if the run stalled, else null
 * @param endNanos the clock when the run ended
 * @param perturbation the chaos controller's account, or null for an undisturbed run
 */
public record MachineResult(
    List<JobStats> jobs,
    List<LittlesLaw> little,
    FlowProtocol.RouterStats router,
    List<FlowProtocol.QueueStats> queues,
    List<CoreProtocol.CoreStats> cores,
    List<String> violations,
    String stall,
    long endNanos,
    Perturbation.Report perturbation) {

  /** An undisturbed run. */
  public MachineResult(
      List<JobStats> jobs,
      List<LittlesLaw> little,
      FlowProtocol.RouterStats router,
      List<FlowProtocol.QueueStats> queues,
      List<CoreProtocol.CoreStats> cores,
      List<String> violations,
      String stall,
      long endNanos) {
    this(jobs, little, router, queues, cores, violations, stall, endNanos, null);
  }

  public boolean healthy() {
    return violations.isEmpty() && stall == null;
  }
}
