package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.runtime.mm1.Mm1Model;
import io.mqroute.runtime.mm1.Mm1Params;
import io.mqroute.runtime.mm1.Mm1Result;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * Life cycle of a virtual-time system: start barrier, runs, messages between runs, horizon, close.
 */
class SimSystemTest {

  @Test
  void startBarrierLeavesNothingForeignForTheRun() {
    // Before the root became the guardian, about 1 start in 20 let a Pekko thread reach into the
    // first run.
    for (int i = 0; i < 40; i++) {
      Mm1Params params = Mm1Params.rho08(i, 200);
      SimSystem.Outcome<Mm1Result> outcome =
          SimSystem.run(
              "barrier",
              TestConfigs.QUIET,
              TimeUnit.HOURS.toNanos(1),
              result -> Mm1Model.root(params, result));
      assertThat(outcome.stats().foreignTasks()).isZero();
      assertThat(outcome.result()).isPresent();
    }
  }

  enum Ping {
    INSTANCE
  }

  @Test
  void messagesFromTheDriverBetweenRunsAreSimulationInput() {
    long[] pings = {0};
    Behavior<Ping> root =
        Behaviors.receiveMessage(
            ping -> {
              pings[0]++;
              return Behaviors.same();
            });

    try (SimSystem<Ping> sim = SimSystem.start("between-runs", TestConfigs.QUIET, root)) {
      for (int i = 1; i <= 3; i++) {
        sim.root().tell(Ping.INSTANCE);
        long expected = i;
        RunStats stats = sim.runUntil(TimeUnit.SECONDS.toNanos(1), () -> pings[0] == expected);
        assertThat(stats.done()).isTrue();
      }
    }
  }

  @Test
  void runStopsAtTheHorizonWithoutAResult() {
    // 10,000 requests need about 0.5 s of virtual time; stop at 0.1 s.
    Mm1Params params = Mm1Params.rho08(1, 10_000);
    SimSystem.Outcome<Mm1Result> outcome =
        SimSystem.run(
            "horizon",
            TestConfigs.QUIET,
            TimeUnit.MILLISECONDS.toNanos(100),
            result -> Mm1Model.root(params, result));

    assertThat(outcome.result()).isEmpty();
    assertThat(outcome.stats().stopReason()).isEqualTo(RunStats.StopReason.HORIZON);
    assertThat(outcome.stats().finalVirtualNanos()).isEqualTo(100_000_000L);
  }

  @Test
  void anIdleModelEndsTheRunIdle() {
    try (SimSystem<Ping> sim = SimSystem.start("idle", TestConfigs.QUIET, Behaviors.ignore())) {
      RunStats stats = sim.runUntil(TimeUnit.HOURS.toNanos(1), () -> false);
      assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.IDLE);
      assertThat(stats.finalVirtualNanos()).isZero();
    }
  }

  @Test
  void systemIsDrivenOnlyByTheThreadThatStartedIt() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try (SimSystem<Ping> sim = SimSystem.start("confined", TestConfigs.QUIET, Behaviors.ignore())) {
      Throwable thrown =
          other
              .submit(
                  () -> {
                    try {
                      sim.runUntil(1, () -> true);
                      return null;
                    } catch (IllegalStateException e) {
                      return e;
                    }
                  })
              .get(30, TimeUnit.SECONDS);
      assertThat(thrown)
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("bound to thread");
    } finally {
      other.shutdownNow();
    }
  }

  @Test
  void closeTerminatesTheSystemAndIsIdempotent() {
    SimSystem<Ping> sim = SimSystem.start("close", TestConfigs.QUIET, Behaviors.ignore());
    sim.close();
    assertThat(sim.system().whenTerminated().isCompleted()).isTrue();
    sim.close();
  }
}
