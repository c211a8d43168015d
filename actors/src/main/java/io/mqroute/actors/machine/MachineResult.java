package io.mqroute.actors.machine;

import io.mqroute.metrics.Digest;
import io.mqroute.metrics.JobStats;
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
    PerturbationProtocol.Report perturbation) {

  /**
   * The digest of this run: the jobs' statistics plus the machine's own counters, anything the seed
   * determines.
   */
  public String digest() {
    Digest d = Digest.create().putString("mqroute.run.v1").putString(Digest.of(jobs));
    for (FlowProtocol.QueueStats q : queues()) {
      d.putInt(q.queue())
          .putLong(q.accepted())
          .putInt(q.maxOccupancy())
          .putLong(q.overflowWaits())
          .putLong(q.overflowNanos())
          .putLong(q.delayedRetries())
          .putLong(q.enomem());
    }
    d.putLong(endNanos()).putInt(violations().size()).putString(stall() == null ? "" : stall());
    if (perturbation() != null) { // chaos runs only: undisturbed digests stay as they were
      d.putString("perturbation");
      perturbation().events().forEach(d::putString);
      queues().forEach(q -> d.putLong(q.rerouted()).putLong(q.errors()));
    }
    return d.hex();
  }

  public boolean healthy() {
    return violations.isEmpty() && stall == null;
  }
}
