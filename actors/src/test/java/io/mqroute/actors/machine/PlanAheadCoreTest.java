package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.runtime.SimSystem;
import io.mqroute.runtime.TimedDelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A core that starts work queued behind other work on its arrival (plan-ahead, issue #18) ends
 * every item at the same virtual instant, delivers every start at the same instant, and counts the
 * same busy time, items, switches, C-state exits and sleep-wake charges as one that starts it from
 * a {@code Tick} at the end of the item before: a script of 400 items of every thread and kind,
 * with zero-cost items that preempt, server items whose result leaves after a device time, items
 * with a start delivery, iowait wake-ups, bursts that queue and gaps long enough for C-states.
 */
class PlanAheadCoreTest {
  private static final int ITEMS = 400;
  private static final Work[] KINDS = {
    Work.SUBMIT, Work.SERVER, Work.COMPLETION, Work.REAP, Work.WAKE
  };

  private record Outcome(List<String> deliveries, CoreProtocol.CoreStats stats) {}

  private static Outcome run(boolean planAhead) {
    List<String> log = new ArrayList<>();
    CompletableFuture<CoreProtocol.CoreStats> stats = new CompletableFuture<>();
    Behavior<Void> root =
        Behaviors.setup(
            ctx -> {
              DispatcherSelector same = DispatcherSelector.sameAsParent();
              TimedDelivery.Clock clock = TimedDelivery.of(ctx.getSystem());
              ActorRef<CoreProtocol.Command> core =
                  ctx.spawn(
                      Core.create(
                          0,
                          MachineSpecParser.SKX_CSTATES,
                          Governor.PERFORMANCE,
                          1_000,
                          700,
                          null,
                          planAhead),
                      "core",
                      same);
              ActorRef<String> recorder =
                  ctx.spawn(
                      Behaviors.receive(String.class)
                          .onAnyMessage(
                              m -> {
                                log.add(clock.nanoTime() + " " + m);
                                return Behaviors.same();
                              })
                          .build(),
                      "recorder",
                      same);
              ActorRef<CoreProtocol.CoreStats> reports =
                  Replies.into(ctx, CoreProtocol.CoreStats.class, stats, "reports");
              SplittableRandom rnd = new SplittableRandom(2026);
              long t = 1_000;
              for (int i = 0; i < ITEMS; i++) {
                // bursts that queue behind each other, and now and then a gap for a C-state
                t += rnd.nextInt(10) == 0 ? rnd.nextLong(20_000, 400_000) : rnd.nextLong(0, 3_000);
                Work kind = KINDS[rnd.nextInt(KINDS.length)];
                long cost = rnd.nextInt(6) == 0 ? 0 : rnd.nextLong(200, 5_000);
                long then = kind == Work.SERVER && rnd.nextBoolean() ? rnd.nextLong(1, 8_000) : 0;
                CoreProtocol.Start<?> start =
                    kind == Work.COMPLETION && rnd.nextBoolean()
                        ? new CoreProtocol.Start<>(recorder, "start-" + i)
                        : null;
                CoreProtocol.Exec<String> e =
                    new CoreProtocol.Exec<>(
                        cost, kind, recorder, "end-" + i, rnd.nextInt(3) == 0, then, start);
                clock.at(t, core, e);
              }
              clock.at(t + 1_000_000_000L, core, new CoreProtocol.Report(reports));
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "plan-ahead", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(10_000_000_000L, stats::isDone);
    }
    assertThat(stats).as("the core reported").isCompleted();
    log.sort(null); // one instant's deliveries may come in another order
    return new Outcome(log, stats.join());
  }

  @Test
  void plannedWorkEndsAndCountsAsWorkStartedFromATick() {
    Outcome ticked = run(false);
    Outcome planned = run(true);
    assertThat(ticked.deliveries()).hasSize(ITEMS + (int) countStarts(ticked));
    assertThat(planned.deliveries()).isEqualTo(ticked.deliveries());
    CoreProtocol.CoreStats a = ticked.stats();
    CoreProtocol.CoreStats b = planned.stats();
    assertThat(b.busyNanos()).isEqualTo(a.busyNanos());
    assertThat(b.items()).isEqualTo(a.items());
    assertThat(b.wakeups()).isEqualTo(a.wakeups());
    assertThat(b.cstateExits()).isEqualTo(a.cstateExits());
    assertThat(b.nanosByKind()).isEqualTo(a.nanosByKind());
    assertThat(b.byKind()).isEqualTo(a.byKind());
    assertThat(b.switchNanos()).isEqualTo(a.switchNanos());
    assertThat(b.exitNanos()).isEqualTo(a.exitNanos());
    assertThat(b.sleepWakeNanos()).isEqualTo(a.sleepWakeNanos());
    assertThat(a.switchNanos()).as("the script switches threads").isPositive();
    assertThat(a.exitNanos()).as("the script leaves C-states").isPositive();
  }

  private static long countStarts(Outcome o) {
    return o.deliveries().stream().filter(s -> s.contains(" start-")).count();
  }
}
