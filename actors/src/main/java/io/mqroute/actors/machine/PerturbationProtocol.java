package io.mqroute.actors.machine;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a {@link Perturbation} actor: what the machine asks and what it answers. */
public final class PerturbationProtocol {
  private PerturbationProtocol() {}

  /**
   * Messages every perturbation takes; implementations add their own (timers) to the same
   * interface.
   */
  public interface Command {}

  /**
   * Job group {@code group} is about to start ({@code last}: it is the final one); answer with
   * {@link MachineProtocol.Proceed} when ready.
   */
  public record BeforeGroup(int group, boolean last, ActorRef<MachineProtocol.Command> replyTo)
      implements Command {}

  /** The run is over: answer with {@link MachineProtocol.GotPerturbation}. */
  public record Collect(ActorRef<MachineProtocol.Command> replyTo) implements Command {}

  /**
   * @param events what was done, in order, one line each (replayable)
   * @param hotplug CPU state changes made
   * @param faults fault windows opened
   */
  public record Report(List<String> events, long hotplug, long faults) {}
}
