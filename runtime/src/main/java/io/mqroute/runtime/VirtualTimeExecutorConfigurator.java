package io.mqroute.runtime;

import com.typesafe.config.Config;
import java.util.concurrent.ThreadFactory;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;

/**
 * Dispatcher executor plug-in for virtual time: {@code mqroute.sim-dispatcher.executor =
 * "io.mqroute.runtime.VirtualTimeExecutorConfigurator"} (set by {@link ClockMode#VIRTUAL}). Every
 * executor it creates appends to the run queue of the same ActorSystem's {@link
 * VirtualTimeScheduler}; no thread is involved.
 */
public final class VirtualTimeExecutorConfigurator extends ExecutorServiceConfigurator {
  private final VirtualTimeScheduler scheduler;

  /**
   * The constructor Pekko calls reflectively.
   *
   * @throws IllegalStateException if the system's scheduler is not a {@link VirtualTimeScheduler}
   */
  public VirtualTimeExecutorConfigurator(Config config, DispatcherPrerequisites prerequisites) {
    super(config, prerequisites);
    if (!(prerequisites.scheduler() instanceof VirtualTimeScheduler virtual)) {
      throw new IllegalStateException(
          "executor = "
              + VirtualTimeExecutorConfigurator.class.getName()
              + " requires pekko.scheduler.implementation = "
              + VirtualTimeScheduler.class.getName()
              + ", got "
              + prerequisites.scheduler().getClass().getName());
    }
    this.scheduler = virtual;
  }

  @Override
  public ExecutorServiceFactory createExecutorServiceFactory(
      String id, ThreadFactory threadFactory) {
    // A new view per call: the dispatcher shuts executors down and recreates them; the queue
    // outlives them all.
    return scheduler::newExecutorService;
  }
}
