package io.mqroute.runtime;

import com.typesafe.config.Config;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.MessageDispatcher;
import org.apache.pekko.dispatch.MessageDispatcherConfigurator;
import scala.concurrent.duration.Duration;
import scala.concurrent.duration.FiniteDuration;

/**
 * Dispatcher plug-in for virtual time: {@code mqroute.sim-dispatcher.type =
 * "io.mqroute.runtime.VirtualTimeDispatcherConfigurator"} (set by {@link ClockMode#VIRTUAL}), a
 * {@link VirtualTimeDispatcher} on the system's run queue, configured as Pekko's {@code Dispatcher}
 * type is (throughput, deadline, executor, shutdown timeout).
 */
public final class VirtualTimeDispatcherConfigurator extends MessageDispatcherConfigurator {
  private final VirtualTimeDispatcher instance;

  /**
   * The constructor Pekko calls reflectively.
   *
   * @throws IllegalStateException if the system's scheduler is not a {@link VirtualTimeScheduler}
   */
  public VirtualTimeDispatcherConfigurator(Config config, DispatcherPrerequisites prerequisites) {
    super(config, prerequisites);
    if (!(prerequisites.scheduler() instanceof VirtualTimeScheduler virtual)) {
      throw new IllegalStateException(
          "type = "
              + VirtualTimeDispatcherConfigurator.class.getName()
              + " requires pekko.scheduler.implementation = "
              + VirtualTimeScheduler.class.getName());
    }
    this.instance =
        new VirtualTimeDispatcher(
            this,
            config.getString("id"),
            config.getInt("throughput"),
            Duration.fromNanos(config.getDuration("throughput-deadline-time").toNanos()),
            configureExecutor(),
            FiniteDuration.apply(
                config.getDuration("shutdown-timeout").toMillis(), TimeUnit.MILLISECONDS),
            virtual.runQueue());
  }

  @Override
  public MessageDispatcher dispatcher() {
    return instance;
  }
}
