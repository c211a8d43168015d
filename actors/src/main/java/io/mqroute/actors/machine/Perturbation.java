package io.mqroute.actors.machine;

import io.mqroute.policies.random.RandomSource;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Something that acts on a running machine from outside the request flow — the chaos controller,
 * which takes CPUs offline and injects faults. The machine spawns it next to its other children,
 * asks it before every job group ({@link PerturbationProtocol.BeforeGroup}) and collects its {@link
 * PerturbationProtocol.Report} at the end.
 */
@FunctionalInterface
public interface Perturbation {
  /** The behaviour to spawn, given the machine's actors. */
  Behavior<PerturbationProtocol.Command> create(Handles handles);

  /** What a perturbation can reach. */
  record Handles(
      List<ActorRef<CoreProtocol.Command>> cores,
      ActorRef<FlowProtocol.RouterCommand> router,
      List<ActorRef<FlowProtocol.QueueCommand>> queues,
      int[] queueHomeCpu,
      List<ActorRef<JobProtocol.Command>> jobs,
      ActorRef<MachineProtocol.Command> machine,
      RandomSource random) {}
}
