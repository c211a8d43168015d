package io.mqroute.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Locale;
import java.util.Map;

/**
 * Which clock an ActorSystem runs on. The behaviours are the same in every mode; only configuration
 * differs. {@link #config()} returns the keys a mode needs; give them precedence over the rest of
 * the configuration.
 *
 * <ul>
 *   <li>Virtual time: {@link SimSystem#start} / {@link SimSystem#run} (they apply {@link #VIRTUAL}
 *       themselves).
 *   <li>Real time: {@code ActorSystem.create(root, name,
 *       ClockMode.REAL.config().withFallback(ConfigFactory.load()), SimDispatcher.selector())} —
 *       the root behaviour becomes the guardian on the simulation dispatcher, as in virtual time.
 * </ul>
 *
 * <p>Pekko's own default and internal dispatchers and the loggers always stay on real threads:
 * start-up blocks on them.
 */
public enum ClockMode {
  /**
   * Deterministic, single-threaded virtual time: {@link VirtualTimeScheduler}, {@link
   * SimDispatcher} on the run queue, and Pekko Streams materialized on the simulation dispatcher.
   * Drive it with {@link SimSystem} or {@link VirtualTimeDriver}.
   */
  VIRTUAL(
      Map.of(
          "pekko.scheduler.implementation",
          VirtualTimeScheduler.class.getName(),
          SimDispatcher.ID + ".executor",
          VirtualTimeExecutorConfigurator.class.getName(),
          SimDispatcher.ID + ".type",
          VirtualTimeDispatcherConfigurator.class.getName(),
          "pekko.stream.materializer.dispatcher",
          SimDispatcher.ID,
          // Typed and stream actors name their mailbox explicitly, so these two keys (not the
          // dispatcher's
          // mailbox-type) are what reaches them.
          "pekko.actor.typed.default-mailbox.mailbox-type",
          VirtualTimeMailbox.class.getName(),
          "pekko.stream.materializer.mailbox.mailbox-type",
          VirtualTimeMailbox.class.getName())),

  /**
   * Real time with Pekko's default scheduler (timers rounded up to its 10 ms tick) and a fork-join
   * dispatcher.
   */
  REAL(
      Map.of(
          "pekko.scheduler.implementation",
          "org.apache.pekko.actor.LightArrayRevolverScheduler",
          SimDispatcher.ID + ".executor",
          "fork-join-executor")),

  /**
   * Real time with {@link PreciseRealTimeScheduler} (microsecond timers, one spinning thread) and a
   * fork-join dispatcher.
   */
  REAL_PRECISE(
      Map.of(
          "pekko.scheduler.implementation",
          PreciseRealTimeScheduler.class.getName(),
          SimDispatcher.ID + ".executor",
          "fork-join-executor"));

  /**
   * Configuration key that {@link #fromConfig} reads: {@code virtual}, {@code real} or {@code
   * real-precise}.
   */
  public static final String CLOCK_KEY = RuntimeSettings.PATH + ".clock";

  private final Map<String, String> settings;

  ClockMode(Map<String, String> settings) {
    this.settings = settings;
  }

  /** The configuration keys of this mode, to be given precedence over everything else. */
  public Config config() {
    return ConfigFactory.parseMap(settings, "ClockMode." + name());
  }

  /**
   * The whole configuration of a system on this clock: this mode's keys over {@code rest}, and,
   * when {@code rest} turns {@value MailboxHighWater#KEY} on, a {@link MailboxHighWater} for every
   * typed and stream actor over those.
   */
  public Config config(Config rest) {
    Config mode = config().withFallback(rest);
    if (!rest.hasPath(MailboxHighWater.KEY) || !rest.getBoolean(MailboxHighWater.KEY)) {
      return mode;
    }
    String measured = MailboxHighWater.class.getName();
    return ConfigFactory.parseMap(
            Map.of(
                "pekko.actor.typed.default-mailbox.mailbox-type",
                measured,
                "pekko.stream.materializer.mailbox.mailbox-type",
                measured),
            MailboxHighWater.KEY)
        .withFallback(mode);
  }

  /** True for {@link #VIRTUAL}. */
  public boolean isVirtual() {
    return this == VIRTUAL;
  }

  /**
   * The mode named by {@value #CLOCK_KEY} in {@code config} (default {@code virtual}, from
   * reference.conf).
   */
  public static ClockMode fromConfig(Config config) {
    String name =
        config
            .withFallback(ConfigFactory.defaultReference(ClockMode.class.getClassLoader()))
            .getString(CLOCK_KEY);
    try {
      return valueOf(name.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          CLOCK_KEY + " must be virtual, real or real-precise, got '" + name + "'", e);
    }
  }
}
