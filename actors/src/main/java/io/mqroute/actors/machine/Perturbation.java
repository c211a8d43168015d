package io.mqroute.actors.machine;

import io.mqroute.policies.random.RandomSource;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Something that acts on a running machine from outside the request flow — the chaos controller,
 * which takes CPUs offline and injects faults. The machine spawns it next to its other children,
 * asks it before every job group ({@link BeforeGroup}) and collects its {@link Report} at the end.
 */
@FunctionalInterface
public interface Perturbation {
  /** The behaviour to spawn, given the machine's actors. */
  Behavior<Command> create(Handles handles);

  /** What a perturbation can reach. */
  record Handles(
      List<ActorRef<CoreProtocol.Command>> cores,
      ActorRef<FlowProtocol.RouterCommand> router,
      List<ActorRef<FlowProtocol.QueueCommand>> queues,
      int[] queueHomeCpu,
      List<ActorRef<JobProtocol.Command>> jobs,
      ActorRef<MachineProtocol.Command> machine,
      RandomSource random) {}

  /**
   * Messages every perturbation takes; implementations add their own (timers) to the same
   * interface.
   */
  interface Command {}

  /**
   * Job group {@code group} is about to start ({@code last}: it is the final one); answer with
   * {@link MachineProtocol.Proceed} when ready.
   */
  record BeforeGroup(int group, boolean last, ActorRef<MachineProtocol.Command> replyTo)
      implements Command {}

  /** The run is over: answer with {@link MachineProtocol.GotPerturbation}. */
  record Collect(ActorRef<MachineProtocol.Command> replyTo) implements Command {}

  /**
   * @param events what was done, in order, one line each (replayable)
   * @param hotplug CPU state changes made
   * @param faults fault windows opened
   */
  record Report(List<String> events, long hotplug, long faults) {}
}
