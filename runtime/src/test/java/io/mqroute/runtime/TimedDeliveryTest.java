package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A timed delivery is one timer whose firing is the tell, at the exact virtual instant, in the
 * order it was scheduled among timers of that instant; a pending one can be redirected once, a
 * fired one not; and the same call works on the real clock.
 */
class TimedDeliveryTest {
  private static final long ONE_HOUR = TimeUnit.HOURS.toNanos(1);

  private record Got(String what, long at) {}

  @Test
  void deliversAtTheInstantAsOneTimerAndRedirectsOnce() {
    List<Got> got = new ArrayList<>();
    CompletableFuture<TimedDelivery[]> handles = new CompletableFuture<>();
    Behavior<String> root =
        Behaviors.setup(
            ctx -> {
              TimedDelivery.Clock clock = TimedDelivery.of(ctx.getSystem());
              ActorRef<String> self = ctx.getSelf();
              TimedDelivery a = clock.at(40_000, self, "a");
              TimedDelivery b = clock.at(40_000, self, "b");
              TimedDelivery c = clock.after(10_000, self, "c");
              handles.complete(new TimedDelivery[] {a, b, c});
              return Behaviors.receiveMessage(
                  m -> {
                    got.add(new Got(m, clock.nanoTime()));
                    return Behaviors.same();
                  });
            });
    try (SimSystem<String> sim = SimSystem.start("timed-delivery", TestConfigs.QUIET, root)) {
      TimedDelivery[] h = handles.join();
      ActorRef<String> self = sim.root();
      assertThat(h[0].redirect(self, "a'")).isTrue();
      assertThat(h[0].redirect(self, "a''")).as("once").isFalse();
      RunStats stats = sim.runUntil(ONE_HOUR, () -> got.size() == 3);
      assertThat(got)
          .containsExactly(new Got("c", 10_000), new Got("a'", 40_000), new Got("b", 40_000));
      assertThat(stats.timersFired()).isEqualTo(3);
      assertThat(stats.tasksRun() + stats.deliveredRuns())
          .as("one mailbox run per instant, no wrapper task")
          .isEqualTo(2);
      assertThat(stats.deliveredRuns()).as("c, alone at its instant, is one event").isEqualTo(1);
      assertThat(h[1].delivered()).isTrue();
      assertThat(h[0].delivered()).as("redirected, not delivered").isFalse();
      assertThat(h[1].redirect(self, "late")).as("fired: too late").isFalse();
    }
  }

  @Test
  void worksOnThePreciseRealTimeClock() throws Exception {
    LinkedBlockingQueue<String> got = new LinkedBlockingQueue<>();
    CompletableFuture<Boolean> redirected = new CompletableFuture<>();
    Behavior<String> root =
        Behaviors.setup(
            ctx -> {
              TimedDelivery.Clock clock = TimedDelivery.of(ctx.getSystem());
              long base = clock.nanoTime();
              clock.at(base + 50_000_000, ctx.getSelf(), "late");
              TimedDelivery first = clock.at(base + 1_000_000, ctx.getSelf(), "first");
              // a loaded machine may run the timer before the redirect: then it is refused
              redirected.complete(first.redirect(ctx.getSelf(), "redirected"));
              return Behaviors.receiveMessage(
                  m -> {
                    got.add(m);
                    return Behaviors.same();
                  });
            });
    ActorSystem<String> system =
        ActorSystem.create(
            root,
            "timed-delivery-real",
            ClockMode.REAL_PRECISE
                .config()
                .withFallback(TestConfigs.QUIET)
                .withFallback(ConfigFactory.load()),
            SimDispatcher.selector());
    try {
      assertThat(got.poll(10, TimeUnit.SECONDS))
          .isEqualTo(redirected.get(10, TimeUnit.SECONDS) ? "redirected" : "first");
      assertThat(got.poll(10, TimeUnit.SECONDS)).isEqualTo("late");
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().join();
    }
  }
}
