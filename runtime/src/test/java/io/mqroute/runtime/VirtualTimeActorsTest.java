package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Typed actors and timers on a virtual-time ActorSystem. */
class VirtualTimeActorsTest {
  private static final long ONE_HOUR = TimeUnit.HOURS.toNanos(1);
  private static ExecutorService otherThread;

  @BeforeAll
  static void startOtherThread() {
    otherThread = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stopOtherThread() {
    otherThread.shutdownNow();
  }

  enum Tick {
    INSTANCE
  }

  @Test
  void fortyMicrosecondTimerFiresAtExactly40000VirtualNanoseconds() {
    CompletableFuture<long[]> firedAt = new CompletableFuture<>();
    Behavior<Tick> root =
        Behaviors.setup(
            ctx ->
                Behaviors.withTimers(
                    timers -> {
                      NanoClock clock = NanoClock.of(ctx.getSystem());
                      long startedAt = clock.nanoTime();
                      timers.startSingleTimer(Tick.INSTANCE, Duration.ofNanos(40_000));
                      return Behaviors.receiveMessage(
                          tick -> {
                            firedAt.complete(new long[] {startedAt, clock.nanoTime()});
                            return Behaviors.same();
                          });
                    }));

    try (SimSystem<Tick> sim = SimSystem.start("timer40us", TestConfigs.QUIET, root)) {
      RunStats stats = sim.runUntil(ONE_HOUR, firedAt::isDone);

      assertThat(firedAt.join()).containsExactly(0L, 40_000L);
      assertThat(stats.done()).isTrue();
      assertThat(stats.finalVirtualNanos()).isEqualTo(40_000L);
      assertThat(sim.clock().nanoTime()).isEqualTo(40_000L);
    }
  }

  @Test
  void horizonStopsARunWhoseConditionNeverHolds() {
    long[] ticks = {0};
    // A periodic timer never lets the timer queue empty, like Pekko's own periodic housekeeping
    // timers do.
    Behavior<Tick> root =
        Behaviors.withTimers(
            timers -> {
              timers.startTimerAtFixedRate(Tick.INSTANCE, Duration.ofMillis(1));
              return Behaviors.receiveMessage(
                  tick -> {
                    ticks[0]++;
                    return Behaviors.same();
                  });
            });

    try (SimSystem<Tick> sim = SimSystem.start("horizon", TestConfigs.QUIET, root)) {
      RunStats stats = sim.runUntil(TimeUnit.SECONDS.toNanos(2), () -> false);

      assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.HORIZON);
      assertThat(stats.finalVirtualNanos()).isEqualTo(TimeUnit.SECONDS.toNanos(2));
      assertThat(ticks[0]).isEqualTo(2_000);
      assertThat(VirtualTimeScheduler.of(sim.system()).pendingTimers())
          .as("the timer queue never empties")
          .isPositive();
    }
  }

  @Test
  void fixedDelayTimersAndStoppedChildrenFollowVirtualTime() {
    CompletableFuture<Long> finished = new CompletableFuture<>();
    Behavior<Tick> root =
        Behaviors.setup(
            ctx -> {
              NanoClock clock = NanoClock.of(ctx.getSystem());
              ActorRef<Tick> child =
                  ctx.spawn(
                      Behaviors.withTimers(
                          timers -> {
                            timers.startTimerWithFixedDelay(Tick.INSTANCE, Duration.ofMillis(3));
                            int[] count = {0};
                            return Behaviors.receiveMessage(
                                tick -> ++count[0] == 5 ? Behaviors.stopped() : Behaviors.same());
                          }),
                      "ticker",
                      DispatcherSelector.sameAsParent());
              ctx.watch(child);
              return Behaviors.receive(Tick.class)
                  .onSignal(
                      Terminated.class,
                      terminated -> {
                        finished.complete(clock.nanoTime());
                        return Behaviors.same();
                      })
                  .build();
            });

    try (SimSystem<Tick> sim = SimSystem.start("fixed-delay", TestConfigs.QUIET, root)) {
      RunStats stats = sim.runUntil(ONE_HOUR, finished::isDone);

      assertThat(finished.join()).isEqualTo(15_000_000L);
      assertThat(stats.done()).isTrue();
    }
  }

  @Test
  void messageFromAForeignThreadDuringARunIsDetected() {
    AtomicBoolean sent = new AtomicBoolean();
    CompletableFuture<ActorRef<Tick>> running = new CompletableFuture<>();
    // Ticks every virtual microsecond so the run is still going when the other thread gets to send.
    Behavior<Tick> root =
        Behaviors.setup(
            ctx ->
                Behaviors.withTimers(
                    timers -> {
                      timers.startTimerAtFixedRate("busy", Tick.INSTANCE, Duration.ofNanos(1_000));
                      return Behaviors.receiveMessage(
                          tick -> {
                            running.complete(ctx.getSelf());
                            return Behaviors.same();
                          });
                    }));

    try (SimSystem<Tick> sim = SimSystem.start("foreign", TestConfigs.QUIET, root)) {
      otherThread.execute(
          () -> {
            running.join().tell(Tick.INSTANCE);
            sent.set(true);
          });

      ForeignTaskException failure =
          catchThrowableOfType(ForeignTaskException.class, () -> sim.runUntil(ONE_HOUR, sent::get));

      assertThat(failure).isNotNull();
      assertThat(failure.stats().foreignTasks()).isPositive();
    }
  }

  record Question(ActorRef<Long> replyTo) {}

  /** Answers 42 seven virtual milliseconds after being asked. */
  private static Behavior<Question> slowResponder() {
    return Behaviors.withTimers(
        timers ->
            Behaviors.receive(Question.class)
                .onMessage(
                    Question.class,
                    question -> {
                      timers.startSingleTimer(new Object[0], question, Duration.ofMillis(7));
                      return Behaviors.receive(Question.class)
                          .onMessage(
                              Question.class,
                              due -> {
                                due.replyTo().tell(42L);
                                return Behaviors.same();
                              })
                          .build();
                    })
                .build());
  }

  @Test
  void askWrappedInDirectStageCompletesInVirtualTime() {
    CompletableFuture<Long> answeredAt = new CompletableFuture<>();
    Behavior<Long> root =
        Behaviors.setup(
            ctx -> {
              NanoClock clock = NanoClock.of(ctx.getSystem());
              ActorRef<Question> responder =
                  ctx.spawn(slowResponder(), "responder", DispatcherSelector.sameAsParent());
              ctx.pipeToSelf(
                  DirectStage.of(
                      AskPattern.ask(
                          responder,
                          Question::new,
                          Duration.ofSeconds(1),
                          ctx.getSystem().scheduler())),
                  (answer, failure) -> answer);
              return Behaviors.receiveMessage(
                  answer -> {
                    answeredAt.complete(clock.nanoTime());
                    return Behaviors.same();
                  });
            });

    try (SimSystem<Long> sim = SimSystem.start("ask", TestConfigs.QUIET, root)) {
      RunStats stats = sim.runUntil(ONE_HOUR, answeredAt::isDone);

      assertThat(stats.done()).isTrue();
      assertThat(answeredAt.join()).isEqualTo(7_000_000L);
    }
  }

  @Test
  void javadslContextAskHopsThreadsAndTheRunSaysSo() {
    // ActorContext.ask (javadsl) attaches its callback to a Scala-converted CompletionStage, which
    // runs it on the
    // common pool: a documented trap. The run must fail loudly rather than produce a
    // non-deterministic result.
    CompletableFuture<Long> answered = new CompletableFuture<>();
    Behavior<Object> root =
        Behaviors.setup(
            ctx ->
                Behaviors.withTimers(
                    timers -> {
                      // A heartbeat keeps the run going (instead of going idle) until the hopped
                      // callback arrives.
                      timers.startTimerAtFixedRate(Tick.INSTANCE, Duration.ofMillis(1));
                      ActorRef<Question> responder =
                          ctx.spawn(
                              slowResponder(), "responder", DispatcherSelector.sameAsParent());
                      ctx.ask(
                          Long.class,
                          responder,
                          Duration.ofSeconds(1),
                          Question::new,
                          (answer, failure) -> answer);
                      return Behaviors.receiveMessage(
                          message -> {
                            if (message instanceof Long answer) {
                              answered.complete(answer);
                            }
                            return Behaviors.same();
                          });
                    }));

    try (SimSystem<Object> sim = SimSystem.start("ask-trap", TestConfigs.QUIET, root)) {
      assertThatThrownBy(() -> sim.runUntil(TimeUnit.HOURS.toNanos(10), answered::isDone))
          .isInstanceOf(ForeignTaskException.class)
          .hasMessageContaining("from thread");
    }
  }
}
