package io.mqroute.runtime;

import org.apache.pekko.actor.typed.DispatcherSelector;

/**
 * The dispatcher every simulated actor runs on, {@code mqroute.sim-dispatcher}. Its executor is
 * chosen by {@link ClockMode}: the virtual-time run queue or a fork-join pool. Spawn root actors
 * with {@link #selector()} and their children with {@code DispatcherSelector.sameAsParent()}.
 */
public final class SimDispatcher {
  /** Configuration path (and dispatcher id) of the simulation dispatcher. */
  public static final String ID = "mqroute.sim-dispatcher";

  private SimDispatcher() {}

  /**
   * Selector for the root: {@code ActorSystem.create(root, name, config,
   * SimDispatcher.selector())}.
   */
  public static DispatcherSelector selector() {
    return DispatcherSelector.fromConfig(ID);
  }
}
