package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

class LivelockTest {
  /** Sends every message straight back: virtual time never moves. */
  private static Behavior<ActorRef<Object>> echo() {
    return Behaviors.receive(
        (ctx, from) -> {
          from.tell(ctx.getSelf());
          return Behaviors.same();
        });
  }

  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void messagesThatNeverLetTimeMoveEndTheRunAsALivelock() {
    Behavior<Object> root =
        Behaviors.setup(
            ctx -> {
              ActorRef a = ctx.spawn((Behavior) echo(), "a", DispatcherSelector.sameAsParent());
              ActorRef b = ctx.spawn((Behavior) echo(), "b", DispatcherSelector.sameAsParent());
              a.tell(b);
              return Behaviors.ignore();
            });
    var config =
        ConfigFactory.parseString("mqroute.runtime.max-tasks-per-instant = 20000")
            .withFallback(TestConfigs.QUIET);
    try (SimSystem<Object> sim = SimSystem.start("livelock", config, root)) {
      RunStats stats = sim.runUntil(TimeUnit.SECONDS.toNanos(1), () -> false);
      assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.LIVELOCK);
      assertThat(stats.tasksRun()).isBetween(20_000L, 30_000L);
    }
  }
}
