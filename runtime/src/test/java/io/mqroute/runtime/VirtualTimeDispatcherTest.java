package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.SupervisorStrategy;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * The virtual-time dispatcher runs a mailbox as Pekko's {@code Mailbox.run} does: up to {@code
 * throughput} (5) messages per run, then a new run at the back of the queue; failures go to the
 * supervisor and a stopped actor takes no more messages.
 */
class VirtualTimeDispatcherTest {
  private static final long ONE_HOUR = TimeUnit.HOURS.toNanos(1);

  private static final DispatcherSelector SAME = DispatcherSelector.sameAsParent();

  private record Say(String who, int n) {}

  @Test
  void aMailboxRunTakesThroughputMessagesThenGoesToTheBackOfTheQueue() {
    List<String> log = new ArrayList<>();
    Behavior<Say> root =
        Behaviors.setup(
            ctx -> {
              ActorRef<Say> a = ctx.spawn(logger(log), "a", SAME);
              ActorRef<Say> b = ctx.spawn(logger(log), "b", SAME);
              return Behaviors.receiveMessage(
                  go -> {
                    for (int i = 1; i <= 7; i++) {
                      a.tell(new Say("a", i));
                    }
                    b.tell(new Say("b", 1));
                    return Behaviors.same();
                  });
            });
    try (SimSystem<Say> sim = SimSystem.start("throughput", TestConfigs.QUIET, root)) {
      assertThat(sim.system().dispatchers().lookup(SimDispatcher.selector()))
          .isInstanceOf(VirtualTimeDispatcher.class);
      sim.root().tell(new Say("go", 0));
      RunStats stats = sim.runUntil(ONE_HOUR, () -> log.size() == 8);
      assertThat(stats.done()).as(stats + " " + log).isTrue();
      assertThat(log).containsExactly("a1", "a2", "a3", "a4", "a5", "b1", "a6", "a7");
      // root's run, a's two runs, b's run
      assertThat(stats.tasksRun()).isEqualTo(4);
    }
  }

  @Test
  void aFailureRestartsTheActorAndItsNextMessagesArrive() {
    List<String> log = new ArrayList<>();
    Behavior<Say> flaky =
        Behaviors.supervise(
                Behaviors.<Say>receiveMessage(
                    s -> {
                      if (s.n() == 2) {
                        throw new IllegalStateException("boom (expected by the test)");
                      }
                      log.add(s.who() + s.n());
                      return Behaviors.same();
                    }))
            .onFailure(IllegalStateException.class, SupervisorStrategy.restart());
    Behavior<Say> root =
        Behaviors.setup(
            ctx -> {
              ActorRef<Say> f = ctx.spawn(flaky, "flaky", SAME);
              ActorRef<Say> s = ctx.spawn(Behaviors.<Say>stopped(), "stopped", SAME);
              return Behaviors.receiveMessage(
                  go -> {
                    for (int i = 1; i <= 4; i++) {
                      f.tell(new Say("f", i));
                      s.tell(new Say("s", i));
                    }
                    return Behaviors.same();
                  });
            });
    try (SimSystem<Say> sim = SimSystem.start("failure", TestConfigs.QUIET, root)) {
      sim.root().tell(new Say("go", 0));
      RunStats stats = sim.runUntil(ONE_HOUR, () -> log.size() == 3);
      assertThat(stats.done()).as(stats + " " + log).isTrue();
      assertThat(log).containsExactly("f1", "f3", "f4");
    }
  }

  private static Behavior<Say> logger(List<String> log) {
    return Behaviors.receiveMessage(
        s -> {
          log.add(s.who() + s.n());
          return Behaviors.same();
        });
  }
}
