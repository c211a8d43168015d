package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.runtime.mm1.Mm1Model;
import io.mqroute.runtime.mm1.Mm1Params;
import io.mqroute.runtime.mm1.Mm1Result;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The same M/M/1 behaviours on a fork-join dispatcher in real time: configuration is the only
 * difference.
 */
@Tag("integration")
class RealTimeModeTest {

  private static Mm1Result runInRealTime(ClockMode mode, Mm1Params params) throws Exception {
    Config config =
        mode.config().withFallback(TestConfigs.QUIET).withFallback(ConfigFactory.load());
    CompletableFuture<Mm1Result> result = new CompletableFuture<>();
    ActorSystem<Void> system =
        ActorSystem.create(
            Mm1Model.root(params, result), "real-time", config, SimDispatcher.selector());
    try {
      assertThat(NanoClock.of(system)).isSameAs(NanoClock.SYSTEM);
      return result.get(60, TimeUnit.SECONDS);
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void microsecondModelFinishesWithThePreciseScheduler() throws Exception {
    // 5,000 requests, 80 µs mean gap: about 0.4 s of real time.
    Mm1Params params = Mm1Params.rho05(3, 5_000);

    Mm1Result result = runInRealTime(ClockMode.REAL_PRECISE, params);

    assertThat(result.completed()).isEqualTo(5_000);
    // Real threads only add delay to the modelled service time; the mean cannot fall below half of
    // it.
    assertThat(result.meanSojournNanos()).isGreaterThan(params.meanServiceNanos() / 2);
  }

  @Test
  void millisecondModelFinishesWithPekkosDefaultScheduler() throws Exception {
    // Pekko's default scheduler rounds timers up to 10 ms ticks, so keep this small: 100 requests.
    Mm1Params params = new Mm1Params(4, 100, 2_000_000.0, 1_000_000.0);

    Mm1Result result = runInRealTime(ClockMode.REAL, params);

    assertThat(result.completed()).isEqualTo(100);
    assertThat(result.meanSojournNanos()).isGreaterThan(params.meanServiceNanos() / 2);
  }
}
