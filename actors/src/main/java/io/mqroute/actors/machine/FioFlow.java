package io.mqroute.actors.machine;

import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * One of fio's flows (flow.c, {@code struct fio_flow}): the clones with the same {@code flow_id}
 * keep their I/O counts in the ratio of their {@code flow} weights. Before each I/O a clone
 * compares its share of the flow's count with its share of the weights ({@code
 * flow_threshold_exceeded}); while it is ahead it is held back.
 *
 * <p>fio's held-back thread spins and checks again; the ratio can only change when another member
 * issues, joins or leaves, so a held-back clone here waits for exactly those events ({@link #hold})
 * instead of spinning. Shared by the clones' actors, which in real time run on several threads:
 * every method is synchronized.
 */
final class FioFlow {

  /** fio starts the shared counter at 1 ({@code flow_get}), so the first ratio is finite. */
  private long counter = 1;

  private long totalWeight;
  private final List<ActorRef<JobProtocol.Command>> held = new ArrayList<>();

  /** fio's flow_init_job: a clone joins when it starts. */
  synchronized void join(int weight) {
    totalWeight += weight;
    wakeHeld();
  }

  /** fio's flow_put: a clone that ends takes its count and weight out of the flow. */
  synchronized void leave(long issued, int weight) {
    counter -= issued;
    totalWeight -= weight;
    wakeHeld();
  }

  /**
   * fio's flow_threshold_exceeded: true, and the I/O counted, if a clone that has issued {@code
   * issued} I/Os of weight {@code weight} may issue one more; false if it is ahead of its share.
   */
  synchronized boolean mayIssue(long issued, int weight) {
    if ((double) issued / counter > (double) weight / totalWeight) {
      return false;
    }
    counter++;
    wakeHeld();
    return true;
  }

  /** A clone held back is told {@link JobProtocol.FlowMoved} at the flow's next change. */
  synchronized void hold(ActorRef<JobProtocol.Command> job) {
    if (!held.contains(job)) {
      held.add(job);
    }
  }

  private void wakeHeld() {
    if (held.isEmpty()) {
      return;
    }
    for (ActorRef<JobProtocol.Command> j : held) {
      j.tell(JobProtocol.FlowMoved.INSTANCE);
    }
    held.clear();
  }
}
