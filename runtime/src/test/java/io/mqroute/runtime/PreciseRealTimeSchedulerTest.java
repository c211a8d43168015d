package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.dispatch.ExecutionContexts;
import org.apache.pekko.event.NoLogging;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import scala.concurrent.ExecutionContext;

/**
 * The real-time scheduler: ordering, cancellation, fixed rate, close. Waits on latches, never
 * sleeps.
 */
@Tag("integration")
class PreciseRealTimeSchedulerTest {
  private static final ExecutionContext INLINE = ExecutionContexts.fromExecutor(Runnable::run);

  private final PreciseRealTimeScheduler scheduler =
      new PreciseRealTimeScheduler(
          ConfigFactory.empty(), NoLogging.getInstance(), Executors.defaultThreadFactory());

  @AfterEach
  void close() {
    scheduler.close();
  }

  @BeforeEach
  void warmUp() throws InterruptedException {
    // The first call loads classes and bootstraps lambdas for milliseconds; keep that out of the
    // timed tests.
    CountDownLatch fired = new CountDownLatch(1);
    scheduler.scheduleOnce(Duration.ZERO, fired::countDown, INLINE);
    assertThat(fired.await(30, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void timersFireInDeadlineOrderAndNeverEarly() throws InterruptedException {
    List<Integer> order = new CopyOnWriteArrayList<>();
    CountDownLatch fired = new CountDownLatch(3);
    long[] firstFiredAfter = {0};
    // A deadline is the moment of the call plus the delay: on a loaded machine the three calls may
    // be far apart, so the order they must fire in is computed from when each was made.
    long[] deadline = new long[4];
    deadline[3] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(150);
    scheduler.scheduleOnce(
        Duration.ofMillis(150),
        () -> {
          order.add(3);
          fired.countDown();
        },
        INLINE);
    long scheduledAt = System.nanoTime();
    deadline[1] = scheduledAt + TimeUnit.MILLISECONDS.toNanos(50);
    scheduler.scheduleOnce(
        Duration.ofMillis(50),
        () -> {
          firstFiredAfter[0] = System.nanoTime() - scheduledAt;
          order.add(1);
          fired.countDown();
        },
        INLINE);
    deadline[2] = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
    scheduler.scheduleOnce(
        Duration.ofMillis(100),
        () -> {
          order.add(2);
          fired.countDown();
        },
        INLINE);

    assertThat(fired.await(30, TimeUnit.SECONDS)).isTrue();
    List<Integer> expected = new ArrayList<>(List.of(1, 2, 3));
    expected.sort(Comparator.comparingLong(i -> deadline[i]));
    assertThat(order).containsExactlyElementsOf(expected);
    assertThat(firstFiredAfter[0]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
  }

  @Test
  void cancelledTimerDoesNotRun() throws InterruptedException {
    AtomicBoolean ran = new AtomicBoolean();
    CountDownLatch later = new CountDownLatch(1);
    Cancellable cancelled =
        scheduler.scheduleOnce(Duration.ofMillis(20), () -> ran.set(true), INLINE);
    scheduler.scheduleOnce(Duration.ofMillis(60), later::countDown, INLINE);

    assertThat(cancelled.cancel()).isTrue();
    assertThat(later.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(ran).isFalse();
  }

  @Test
  void fixedRateTimerRepeatsUntilCancelled() throws InterruptedException {
    CountDownLatch fiveTimes = new CountDownLatch(5);
    Cancellable repeating =
        scheduler.scheduleAtFixedRate(
            Duration.ZERO, Duration.ofNanos(200_000), fiveTimes::countDown, INLINE);

    assertThat(fiveTimes.await(30, TimeUnit.SECONDS)).isTrue();
    assertThat(repeating.cancel()).isTrue();
    assertThat(repeating.isCancelled()).isTrue();
  }

  @Test
  void closeRunsTaskRunOnCloseAndRefusesNewTimers() {
    AtomicBoolean ranOnClose = new AtomicBoolean();
    scheduler.scheduleOnce(
        Duration.ofHours(1), (Scheduler.TaskRunOnClose) () -> ranOnClose.set(true), INLINE);

    scheduler.close();

    assertThat(ranOnClose).isTrue();
    assertThatThrownBy(() -> scheduler.scheduleOnce(Duration.ZERO, () -> {}, INLINE))
        .isInstanceOf(IllegalStateException.class);
  }
}
