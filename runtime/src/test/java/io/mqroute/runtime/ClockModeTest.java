package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

class ClockModeTest {

  @Test
  void virtualModeSelectsTheVirtualSchedulerExecutorAndStreamDispatcher() {
    Config config = ClockMode.VIRTUAL.config().withFallback(ConfigFactory.load());

    assertThat(config.getString("pekko.scheduler.implementation"))
        .isEqualTo(VirtualTimeScheduler.class.getName());
    assertThat(config.getString(SimDispatcher.ID + ".executor"))
        .isEqualTo(VirtualTimeExecutorConfigurator.class.getName());
    assertThat(config.getString("pekko.stream.materializer.dispatcher"))
        .isEqualTo(SimDispatcher.ID);
    assertThat(config.getString("pekko.actor.typed.default-mailbox.mailbox-type"))
        .isEqualTo(VirtualTimeMailbox.class.getName());
    // Pekko's own dispatchers stay on real threads.
    assertThat(config.getString("pekko.actor.default-dispatcher.executor"))
        .isEqualTo("default-executor");
  }

  @Test
  void realModesUseAForkJoinSimulationDispatcher() {
    for (ClockMode mode : new ClockMode[] {ClockMode.REAL, ClockMode.REAL_PRECISE}) {
      Config config =
          mode.config().withFallback(ClockMode.VIRTUAL.config()).withFallback(ConfigFactory.load());
      assertThat(config.getString(SimDispatcher.ID + ".executor")).isEqualTo("fork-join-executor");
      assertThat(mode.isVirtual()).isFalse();
    }
    assertThat(ClockMode.REAL_PRECISE.config().getString("pekko.scheduler.implementation"))
        .isEqualTo(PreciseRealTimeScheduler.class.getName());
  }

  @Test
  void modeIsReadFromConfiguration() {
    assertThat(ClockMode.fromConfig(ConfigFactory.empty())).isEqualTo(ClockMode.VIRTUAL);
    assertThat(
            ClockMode.fromConfig(
                ConfigFactory.parseString(ClockMode.CLOCK_KEY + " = real-precise")))
        .isEqualTo(ClockMode.REAL_PRECISE);
    assertThatThrownBy(
            () -> ClockMode.fromConfig(ConfigFactory.parseString(ClockMode.CLOCK_KEY + " = wall")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("wall");
  }

  @Test
  void virtualTimeSchedulerIsRequiredForVirtualTimeHelpers() throws Exception {
    Config config =
        ClockMode.REAL.config().withFallback(TestConfigs.QUIET).withFallback(ConfigFactory.load());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "not-virtual", config);
    try {
      assertThatThrownBy(() -> VirtualTimeScheduler.of(system))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("ClockMode.VIRTUAL");
      assertThatThrownBy(() -> VirtualTimeDriver.bindToCurrentThread(system))
          .isInstanceOf(IllegalStateException.class);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }
}
