package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.apache.pekko.actor.Scheduler;
import org.junit.jupiter.api.Test;

class TimerQueueTest {
  private static final Runnable NOOP = () -> {};

  @Test
  void pollsByDeadlineThenInsertionOrder() {
    TimerQueue queue = new TimerQueue();
    ScheduledTimer late = queue.add(30, 0, NOOP, null);
    ScheduledTimer firstAt10 = queue.add(10, 0, NOOP, null);
    ScheduledTimer early = queue.add(5, 0, NOOP, null);
    ScheduledTimer secondAt10 = queue.add(10, 0, NOOP, null);

    List<ScheduledTimer> order = new ArrayList<>();
    ScheduledTimer timer;
    while ((timer = queue.pollDue(100)) != null) {
      order.add(timer);
    }
    assertThat(order).containsExactly(early, firstAt10, secondAt10, late);
  }

  @Test
  void manyTimersComeOutInDeadlineThenInsertionOrderWithCancelledOnesSkipped() {
    TimerQueue queue = new TimerQueue();
    SplittableRandom rnd = new SplittableRandom(18);
    List<ScheduledTimer> live = new ArrayList<>();
    long now = 0;
    List<ScheduledTimer> fired = new ArrayList<>();
    for (int round = 0; round < 200; round++) {
      for (int i = 0; i < 40; i++) {
        // few distinct deadlines, so that ties (broken by insertion order) are common
        ScheduledTimer t = queue.add(now + rnd.nextInt(50), 0, NOOP, null);
        if (rnd.nextInt(4) == 0) {
          t.cancel();
        } else {
          live.add(t);
        }
      }
      now += 20;
      ScheduledTimer t;
      while ((t = queue.pollDue(now)) != null) {
        fired.add(t);
      }
    }
    ScheduledTimer t;
    while ((t = queue.pollDue(Long.MAX_VALUE)) != null) {
      fired.add(t);
    }
    assertThat(fired).hasSameSizeAs(live).containsExactlyInAnyOrderElementsOf(live);
    // within each poll batch the order is (deadline, insertion); across batches deadlines only grow
    for (int i = 1; i < fired.size(); i++) {
      ScheduledTimer a = fired.get(i - 1);
      ScheduledTimer b = fired.get(i);
      assertThat(Comparator.<ScheduledTimer>naturalOrder().compare(a, b) < 0)
          .as("timer %d before timer %d", i - 1, i)
          .isTrue();
    }
  }

  @Test
  void pollDueReturnsNothingBeforeTheDeadline() {
    TimerQueue queue = new TimerQueue();
    queue.add(10, 0, NOOP, null);
    assertThat(queue.pollDue(9)).isNull();
    assertThat(queue.nextDeadline()).isEqualTo(10);
    assertThat(queue.pollDue(10)).isNotNull();
    assertThat(queue.nextDeadline()).isEqualTo(TimerQueue.NO_DEADLINE);
  }

  @Test
  void cancelledTimersAreSkippedAndCompactedWhenTheyDominate() {
    TimerQueue queue = new TimerQueue();
    List<ScheduledTimer> timers = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      timers.add(queue.add(1_000 + i, 0, NOOP, null));
    }
    for (int i = 0; i < 9_000; i++) {
      assertThat(timers.get(i).cancel()).isTrue();
    }
    assertThat(queue.liveCount()).isEqualTo(1_000);
    assertThat(queue.heapSize())
        .as("compacted, not 10,000 entries")
        .isLessThanOrEqualTo(1_000 + 256);
    assertThat(queue.nextDeadline()).isEqualTo(1_000 + 9_000);
  }

  @Test
  void periodicTimerIsReArmedAfterTimersAlreadyDueAtItsNextDeadline() {
    TimerQueue queue = new TimerQueue();
    ScheduledTimer periodic = queue.add(10, 10, NOOP, null);
    ScheduledTimer at20 = queue.add(20, 0, NOOP, null);

    assertThat(queue.pollDue(10)).isSameAs(periodic);
    assertThat(queue.pollDue(20)).isSameAs(at20);
    assertThat(queue.pollDue(20)).isSameAs(periodic);
    assertThat(queue.nextDeadline()).isEqualTo(30);
    periodic.cancel();
    assertThat(queue.nextDeadline()).isEqualTo(TimerQueue.NO_DEADLINE);
  }

  @Test
  void deadlinesSaturateInsteadOfOverflowing() {
    assertThat(TimerQueue.saturatedAdd(Long.MAX_VALUE - 5, 10))
        .isEqualTo(TimerQueue.NO_DEADLINE - 1);
    assertThat(TimerQueue.saturatedAdd(7, 3)).isEqualTo(10);
    TimerQueue queue = new TimerQueue();
    queue.add(Long.MAX_VALUE, 0, NOOP, null);
    assertThat(queue.nextDeadline()).isLessThan(TimerQueue.NO_DEADLINE);
  }

  @Test
  void closeReturnsOnlyPendingRunOnCloseTasksAndRefusesNewTimers() {
    TimerQueue queue = new TimerQueue();
    Scheduler.TaskRunOnClose onClose = () -> {};
    Scheduler.TaskRunOnClose cancelledOnClose = () -> {};
    queue.add(10, 0, NOOP, null);
    queue.add(20, 0, onClose, null);
    queue.add(30, 0, cancelledOnClose, null).cancel();

    assertThat(queue.close()).containsExactly(onClose);
    assertThatThrownBy(() -> queue.add(40, 0, NOOP, null))
        .isInstanceOf(IllegalStateException.class);
  }
}
