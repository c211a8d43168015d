package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.cpu.CState;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.cpu.WakeTargets;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.SimSystem;
import io.mqroute.runtime.TimedDelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A core whose last item ends at instant T is not idle for a wake-up decided at T (the thread that
 * ran it is still rq->curr there: issue 21, mechanism 2, the two readers that swapped CPUs), and is
 * idle one nanosecond later. In virtual time on one Core that publishes to a WakeTargets.
 */
class IdleAtTheEndInstantTest {
  private static final long US = 1_000;

  /** Runs one 3 us item from t = 0 on core 0 and asks whether core 0 is idle at each instant. */
  private static List<Boolean> idleAt(long... instants) {
    List<Boolean> seen = new ArrayList<>();
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    Behavior<Void> root =
        Behaviors.setup(
            ctx -> {
              NanoClock clock = NanoClock.of(ctx.getSystem());
              WakeTargets targets =
                  new WakeTargets(
                      new int[] {0, 0},
                      new int[] {1},
                      new int[][] {{0, 1}},
                      clock::nanoTime,
                      false,
                      false);
              DispatcherSelector same = DispatcherSelector.sameAsParent();
              ActorRef<CoreProtocol.Command> core =
                  ctx.spawn(
                      Core.create(
                          0, List.of(new CState("HLT", 0, US)), Governor.PERFORMANCE, 0, targets),
                      "core",
                      same);
              ActorRef<String> sink =
                  ctx.spawn(Behaviors.receive(String.class).build(), "sink", same);
              ActorRef<Long> probe =
                  ctx.spawn(
                      Behaviors.receive(Long.class)
                          .onMessage(
                              Long.class,
                              t -> {
                                seen.add(targets.idle(0));
                                if (seen.size() == instants.length) {
                                  done.complete(true);
                                }
                                return Behaviors.same();
                              })
                          .build(),
                      "probe",
                      same);
              TimedDelivery.Clock at = TimedDelivery.of(ctx.getSystem());
              at.at(0, core, new CoreProtocol.Exec<>(3 * US, Work.SERVER, sink, "item"));
              for (long t : instants) {
                at.at(t, probe, t);
              }
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "idle-at-the-end", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(1_000_000, done::isDone);
    }
    assertThat(done).as("every probe ran").isCompleted();
    return seen;
  }

  @Test
  void busyDuringAndAtTheEndInstantIdleAfterIt() {
    assertThat(idleAt(US, 3 * US, 3 * US + 1)).containsExactly(false, false, true);
  }
}
