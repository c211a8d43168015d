package io.mqroute.chaos;

import io.mqroute.actors.machine.Fault;
import io.mqroute.actors.machine.PerturbationProtocol.Command;

/**
 * The {@link ChaosController}'s own messages (its timers), beside the {@link
 * io.mqroute.actors.machine.PerturbationProtocol} every perturbation takes.
 */
public final class ChaosControllerProtocol {
  private ChaosControllerProtocol() {}

  record Flip() implements Command {}

  record Scripted(int index) implements Command {}

  record Arrive(int schedule) implements Command {}

  record Close(Fault.Kind kind, int queue, long serial) implements Command {}
}
