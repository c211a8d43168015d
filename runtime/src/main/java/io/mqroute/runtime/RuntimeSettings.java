package io.mqroute.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;

/**
 * The {@code mqroute.runtime} section of the configuration (documented in {@code reference.conf}).
 *
 * @param checkDoneEvery how many tasks the driver runs between two evaluations of a run's done
 *     condition (it is also evaluated every time the run queue drains)
 * @param startTimeout wall-clock limit for a root actor to start
 * @param terminateTimeout wall-clock limit for an ActorSystem to terminate
 * @param terminateIdleAdvance during termination only: how long the driver waits for work from
 *     other threads before it advances virtual time to the next timer (shutdown code may wait on a
 *     timer)
 * @param preciseSpinNanos how long before a deadline {@link PreciseRealTimeScheduler} stops parking
 *     and spins
 * @param maxTasksPerInstant tasks the driver runs without virtual time moving before it calls the
 *     run a livelock
 * @param deliverLoneRuns a timed delivery that is the only thing due at its instant, onto an empty
 *     run queue, runs its receiver at once (straight into it when it is idle), as part of its own
 *     event, instead of queuing the receiver's run as a task (the same order either way; off is for
 *     comparison)
 */
record RuntimeSettings(
    int checkDoneEvery,
    Duration startTimeout,
    Duration terminateTimeout,
    Duration terminateIdleAdvance,
    long preciseSpinNanos,
    long maxTasksPerInstant,
    boolean deliverLoneRuns) {

  static final String PATH = "mqroute.runtime";

  RuntimeSettings {
    if (checkDoneEvery < 1) {
      throw new IllegalArgumentException(
          PATH + ".check-done-every must be >= 1, got " + checkDoneEvery);
    }
  }

  /**
   * Reads the section, falling back to this module's reference.conf for keys the given config
   * lacks.
   */
  static RuntimeSettings from(Config config) {
    Config section =
        config
            .withFallback(ConfigFactory.defaultReference(RuntimeSettings.class.getClassLoader()))
            .getConfig(PATH);
    return new RuntimeSettings(
        section.getInt("check-done-every"),
        section.getDuration("start-timeout"),
        section.getDuration("terminate-timeout"),
        section.getDuration("terminate-idle-advance"),
        section.getDuration("precise-scheduler.spin").toNanos(),
        section.getLong("max-tasks-per-instant"),
        section.getBoolean("deliver-lone-runs"));
  }
}
