package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.actor.SchedulerTask;
import org.apache.pekko.dispatch.ExecutionContexts;
import org.apache.pekko.event.NoLogging;
import org.junit.jupiter.api.Test;
import scala.concurrent.ExecutionContext;

/** The scheduler and its run queue without an ActorSystem. */
class VirtualTimeSchedulerTest {
  private static final ExecutionContext INLINE = ExecutionContexts.fromExecutor(Runnable::run);
  private static final long NEVER = Long.MAX_VALUE;

  private final VirtualTimeScheduler scheduler =
      new VirtualTimeScheduler(
          ConfigFactory.empty(), NoLogging.getInstance(), Executors.defaultThreadFactory());
  private final VirtualTimeDriver driver = VirtualTimeDriver.bindToCurrentThread(scheduler);

  @Test
  void timersFireAtTheirExactVirtualDeadlinesInOrder() {
    List<String> fired = new ArrayList<>();
    scheduler.scheduleOnce(
        Duration.ofNanos(40_000), () -> fired.add("40us@" + scheduler.nanoTime()), INLINE);
    scheduler.scheduleOnce(
        Duration.ofNanos(7), () -> fired.add("a@" + scheduler.nanoTime()), INLINE);
    scheduler.scheduleOnce(
        Duration.ofNanos(7), () -> fired.add("b@" + scheduler.nanoTime()), INLINE);

    RunStats stats = driver.runUntil(NEVER, () -> false);

    assertThat(fired).containsExactly("a@7", "b@7", "40us@40000");
    assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.IDLE);
    assertThat(stats.timersFired()).isEqualTo(3);
    assertThat(stats.finalVirtualNanos()).isEqualTo(40_000);
  }

  @Test
  void timedDeliveriesAndPekkoTimersFireInOneDeadlineThenSchedulingOrder() {
    // the driver's own deliveries (scheduleAt) and Pekko's timers (scheduleOnce) live in two
    // structures; one instant's timers still fire in the order they were scheduled
    List<String> fired = new ArrayList<>();
    scheduler.scheduleAt(100, () -> fired.add("d1@" + scheduler.nanoTime()));
    scheduler.scheduleOnce(
        Duration.ofNanos(100), () -> fired.add("p1@" + scheduler.nanoTime()), INLINE);
    Cancellable dropped =
        scheduler.scheduleOnce(Duration.ofNanos(100), () -> fired.add("dropped"), INLINE);
    scheduler.scheduleAt(100, () -> fired.add("d2@" + scheduler.nanoTime()));
    scheduler.scheduleOnce(
        Duration.ofNanos(50),
        () -> {
          fired.add("p0@" + scheduler.nanoTime());
          // a delivery for an instant that has passed fires now, after what is due now
          scheduler.scheduleAt(10, () -> fired.add("late@" + scheduler.nanoTime()));
        },
        INLINE);
    scheduler.scheduleOnce(
        Duration.ofNanos(100), () -> fired.add("p2@" + scheduler.nanoTime()), INLINE);
    dropped.cancel();
    assertThat(scheduler.pendingTimers()).isEqualTo(5);
    assertThat(scheduler.nextDeadline()).isEqualTo(50);

    RunStats stats = driver.runUntil(NEVER, () -> false);

    assertThat(fired).containsExactly("p0@50", "late@50", "d1@100", "p1@100", "d2@100", "p2@100");
    assertThat(stats.timersFired()).isEqualTo(6);
    assertThat(scheduler.pendingTimers()).isZero();
    assertThat(scheduler.nextDeadline()).isEqualTo(TimerQueue.NO_DEADLINE);
  }

  @Test
  void cancelledTimerDoesNotFireAndItsSchedulerTaskIsTold() {
    boolean[] ran = {false};
    boolean[] toldCancelled = {false};
    SchedulerTask task =
        new SchedulerTask() {
          @Override
          public void run() {
            ran[0] = true;
          }

          @Override
          public void cancelled() {
            toldCancelled[0] = true;
          }
        };
    Cancellable handle = scheduler.scheduleOnce(Duration.ofMillis(1), task, INLINE);

    assertThat(handle.cancel()).isTrue();
    assertThat(handle.cancel()).isFalse();
    assertThat(handle.isCancelled()).isTrue();
    driver.runUntil(NEVER, () -> false);

    assertThat(ran[0]).isFalse();
    assertThat(toldCancelled[0]).isTrue();
    assertThat(scheduler.pendingTimers()).isZero();
  }

  @Test
  void firedOneShotTimerCannotBeCancelled() {
    Cancellable handle = scheduler.scheduleOnce(Duration.ofNanos(1), () -> {}, INLINE);
    driver.runUntil(NEVER, () -> false);
    assertThat(handle.cancel()).isFalse();
    assertThat(handle.isCancelled()).isFalse();
  }

  @Test
  void fixedRateTimerFiresEveryIntervalUntilCancelled() {
    List<Long> times = new ArrayList<>();
    Cancellable[] handle = new Cancellable[1];
    handle[0] =
        scheduler.scheduleAtFixedRate(
            Duration.ofNanos(100),
            Duration.ofNanos(250),
            () -> {
              times.add(scheduler.nanoTime());
              if (times.size() == 4) {
                handle[0].cancel();
              }
            },
            INLINE);

    RunStats stats = driver.runUntil(NEVER, () -> false);

    assertThat(times).containsExactly(100L, 350L, 600L, 850L);
    assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.IDLE);
  }

  @Test
  void repeatedTaskThatThrowsIsNotRunAgain() {
    int[] runs = {0};
    scheduler.scheduleAtFixedRate(
        Duration.ZERO,
        Duration.ofNanos(10),
        () -> {
          runs[0]++;
          throw new IllegalStateException("boom");
        },
        INLINE);
    driver.runUntil(1_000, () -> false);
    assertThat(runs[0]).isEqualTo(1);
    assertThat(scheduler.pendingTimers()).isZero();
  }

  @Test
  void horizonStopsARunAndMovesTheClockToIt() {
    int[] ticks = {0};
    scheduler.scheduleAtFixedRate(
        Duration.ofMillis(1), Duration.ofMillis(1), () -> ticks[0]++, INLINE);

    RunStats stats = driver.runUntil(1_000_500_000L, () -> false);

    assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.HORIZON);
    assertThat(stats.finalVirtualNanos()).isEqualTo(1_000_500_000L);
    assertThat(ticks[0]).isEqualTo(1_000);
  }

  @Test
  void doneIsCheckedWhileTheQueueNeverDrains() {
    ExecutorService executor = scheduler.newExecutorService();
    long[] count = {0};
    Runnable endless =
        new Runnable() {
          @Override
          public void run() {
            count[0]++;
            executor.execute(this);
          }
        };
    executor.execute(endless);

    RunStats stats = driver.runUntil(NEVER, () -> count[0] >= 5_000);

    assertThat(stats.stopReason()).isEqualTo(RunStats.StopReason.DONE);
    assertThat(stats.tasksRun()).isBetween(5_000L, 5_000L + scheduler.settings().checkDoneEvery());
    assertThat(stats.finalVirtualNanos()).isZero();
  }

  @Test
  void executorKeepsAcceptingWorkAfterShutdown() {
    ExecutorService executor = scheduler.newExecutorService();
    executor.shutdown();
    assertThat(executor.isShutdown()).isTrue();
    assertThat(executor.isTerminated()).isTrue();

    boolean[] ran = {false};
    executor.execute(() -> ran[0] = true);
    driver.runUntil(NEVER, () -> false);

    assertThat(ran[0]).isTrue();
  }

  @Test
  void closeRunsPendingTaskRunOnCloseTasksAndThenRefusesTimers() {
    boolean[] ran = {false, false};
    scheduler.scheduleOnce(
        Duration.ofSeconds(1), (Scheduler.TaskRunOnClose) () -> ran[0] = true, INLINE);
    scheduler.scheduleOnce(Duration.ofSeconds(1), () -> ran[1] = true, INLINE);

    scheduler.close();

    assertThat(ran).containsExactly(true, false);
    assertThatThrownBy(() -> scheduler.scheduleOnce(Duration.ZERO, () -> {}, INLINE))
        .isInstanceOf(IllegalStateException.class);
  }

  @Test
  void aTimerAtTheCurrentInstantFiresWithoutMovingTheClock() {
    scheduler.scheduleOnce(Duration.ofNanos(5), () -> {}, INLINE);
    driver.runUntil(NEVER, () -> false);
    long[] firedAt = {-1};
    scheduler.scheduleOnce(Duration.ofNanos(-3), () -> firedAt[0] = scheduler.nanoTime(), INLINE);
    driver.runUntil(NEVER, () -> false);
    assertThat(firedAt[0]).isEqualTo(5);
  }
}
