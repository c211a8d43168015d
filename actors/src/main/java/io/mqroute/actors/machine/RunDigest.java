package io.mqroute.actors.machine;

import io.mqroute.actors.metrics.Digest;

/**
 * The digest of one machine run: the jobs' statistics plus the machine's own counters — anything
 * the seed determines.
 */
public final class RunDigest {
  private RunDigest() {}

  public static String of(MachineResult r) {
    Digest d = Digest.create().putString("mqroute.run.v1").putString(Digest.of(r.jobs()));
    for (FlowProtocol.QueueStats q : r.queues()) {
      d.putInt(q.queue())
          .putLong(q.accepted())
          .putInt(q.maxOccupancy())
          .putLong(q.overflowWaits())
          .putLong(q.overflowNanos())
          .putLong(q.delayedRetries())
          .putLong(q.enomem());
    }
    d.putLong(r.endNanos())
        .putInt(r.violations().size())
        .putString(r.stall() == null ? "" : r.stall());
    if (r.perturbation() != null) { // chaos runs only: undisturbed digests stay as they were
      d.putString("perturbation");
      r.perturbation().events().forEach(d::putString);
      r.queues().forEach(q -> d.putLong(q.rerouted()).putLong(q.errors()));
    }
    return d.hex();
  }
}
