package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A lone timed delivery's mailbox run, run by the driver as part of the timer's event ({@code
 * mqroute.runtime.deliver-lone-runs}), changes only how the driver counts: the same messages reach
 * the same actors at the same instants in the same order as when the run is queued as a task, and
 * every run so saved is one task fewer. The workload mixes lone deliveries, several due at one
 * instant, zero-delay ones and plain tells between five actors.
 */
class DeliveredRunTest {
  private static final int ACTORS = 5;
  private static final long HORIZON = TimeUnit.HOURS.toNanos(1);

  private record Hop(int id, int hop) {}

  private record Seen(int actor, int id, int hop, long at) {}

  private record Run(List<Seen> trace, RunStats stats) {}

  @Test
  void theSameTraceAsWithQueuedRunsWithOneTaskFewerPerDeliveredRun() {
    Run on = run(true);
    Run off = run(false);
    assertThat(on.trace()).hasSizeGreaterThan(5_000);
    assertThat(on.trace()).isEqualTo(off.trace());
    assertThat(off.stats().deliveredRuns()).isZero();
    assertThat(on.stats().deliveredRuns()).isPositive();
    assertThat(on.stats().timersFired()).isEqualTo(off.stats().timersFired());
    assertThat(on.stats().tasksRun() + on.stats().deliveredRuns())
        .as("every mailbox run happens either way")
        .isEqualTo(off.stats().tasksRun());
  }

  private static Run run(boolean deliverLone) {
    List<Seen> trace = new ArrayList<>();
    Behavior<Hop> root =
        Behaviors.setup(
            ctx -> {
              TimedDelivery.Clock clock = TimedDelivery.of(ctx.getSystem());
              List<ActorRef<Hop>> actors = new ArrayList<>();
              for (int a = 0; a < ACTORS; a++) {
                int self = a;
                actors.add(
                    ctx.spawn(
                        Behaviors.receiveMessage(
                            (Hop m) -> {
                              trace.add(new Seen(self, m.id(), m.hop(), clock.nanoTime()));
                              if (m.hop() < 40) {
                                next(
                                    clock,
                                    actors,
                                    self,
                                    m,
                                    new SplittableRandom(m.id() * 1000L + m.hop()));
                              }
                              return Behaviors.same();
                            }),
                        "a" + a,
                        DispatcherSelector.sameAsParent()));
              }
              // started by the driver's first message: setup runs on a Pekko thread
              return Behaviors.<Hop>receiveMessage(
                  start -> {
                    SplittableRandom r = new SplittableRandom(7);
                    for (int id = 0; id < 200; id++) {
                      clock.at(
                          r.nextLong(1, 50) * 1_000, actors.get(r.nextInt(ACTORS)), new Hop(id, 0));
                    }
                    return Behaviors.same();
                  });
            });
    String conf = "mqroute.runtime.deliver-lone-runs = " + (deliverLone ? "on" : "off");
    try (SimSystem<Hop> sim =
        SimSystem.start(
            "delivered-run",
            ConfigFactory.parseString(conf).withFallback(TestConfigs.QUIET),
            root)) {
      sim.root().tell(new Hop(-1, 0));
      RunStats stats = sim.runUntil(HORIZON, () -> false);
      return new Run(trace, stats);
    }
  }

  /**
   * A tell now (after one to itself), a delivery at a coarse instant (often shared), or one after
   * no time at all.
   */
  private static void next(
      TimedDelivery.Clock clock, List<ActorRef<Hop>> actors, int self, Hop m, SplittableRandom r) {
    Hop n = new Hop(m.id(), m.hop() + 1);
    ActorRef<Hop> to = actors.get(r.nextInt(ACTORS));
    switch (r.nextInt(4)) {
      case 0 -> {
        // a last word to itself first, which its current mailbox run takes before anything else
        actors.get(self).tell(new Hop(m.id(), 1000 + m.hop()));
        to.tell(n);
      }
      case 1 -> clock.after(0, to, n);
      case 2 -> clock.at((clock.nanoTime() / 10_000 + 1) * 10_000, to, n);
      default -> clock.after(r.nextLong(1, 100_000), to, n);
    }
  }
}
