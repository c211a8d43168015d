package io.mqroute.runtime;

import com.typesafe.config.Config;
import java.io.Closeable;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import org.apache.pekko.actor.AbstractScheduler;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Real-time Pekko scheduler plug-in with nanosecond deadlines, for microsecond timers in real time
 * (Pekko's default {@code LightArrayRevolverScheduler} rounds every delay up to its tick, 10 ms by
 * default, 1 ms at best). Selected by {@link ClockMode#REAL_PRECISE}.
 *
 * <p>Cost trade-off: one timer thread parks until {@code mqroute.runtime.precise-scheduler.spin}
 * before the earliest deadline and then busy-spins, so while timers are pending closer than that it
 * burns a core. Timer tasks are handed to their {@link ExecutionContext}; typed timers pass the
 * parasitic one, so they run on the timer thread and only enqueue a message. Accuracy is bounded by
 * how soon the OS runs that thread: on a contended machine expect tails of milliseconds.
 */
public final class PreciseRealTimeScheduler extends AbstractScheduler implements Closeable {
  private final LoggingAdapter log;
  private final long spinNanos;
  private final TimerQueue timers = new TimerQueue();
  private final Thread thread;

  /**
   * Set when a timer earlier than the one being waited for arrives, so a spinning timer thread
   * re-checks.
   */
  private volatile boolean headChanged;

  /**
   * The constructor Pekko calls reflectively; starts the timer thread from {@code threadFactory}.
   */
  public PreciseRealTimeScheduler(Config config, LoggingAdapter log, ThreadFactory threadFactory) {
    this.log = log;
    this.spinNanos = RuntimeSettings.from(config).preciseSpinNanos();
    this.thread = threadFactory.newThread(this::timerLoop);
    thread.start();
  }

  @Override
  public Cancellable scheduleOnce(
      FiniteDuration delay, Runnable runnable, ExecutionContext executor) {
    return wakeIfEarliest(timers.addOnce(System.nanoTime(), delay, runnable, executor));
  }

  /**
   * Fixed-rate timer: deadlines are {@code start + initialDelay + k * interval}, so a late timer
   * catches up.
   */
  // Deprecated in Pekko for callers (scheduleAtFixedRate is the API), but still the abstract hook
  // it delegates to.
  @SuppressWarnings("deprecation")
  @Override
  public Cancellable schedule(
      FiniteDuration initialDelay,
      FiniteDuration interval,
      Runnable runnable,
      ExecutionContext executor) {
    return wakeIfEarliest(
        timers.addFixedRate(System.nanoTime(), initialDelay, interval, runnable, executor));
  }

  /**
   * A one-shot task at an absolute {@code System.nanoTime} instant, run on the timer thread (see
   * {@link TimedDelivery}: it only tells an actor).
   */
  void scheduleAt(long deadlineNanos, Runnable task) {
    wakeIfEarliest(
        timers.add(deadlineNanos, 0L, task, scala.concurrent.ExecutionContext.parasitic$.MODULE$));
  }

  /** One microsecond: finer is below what the timer thread can honour. */
  @Override
  public double maxFrequency() {
    return 1.0e6;
  }

  /**
   * Stops the timer thread and runs the pending {@code TaskRunOnClose} tasks (Pekko's contract).
   */
  @Override
  public void close() {
    timers.closeAndRunOnCloseTasks(log);
    LockSupport.unpark(thread);
  }

  private ScheduledTimer wakeIfEarliest(ScheduledTimer timer) {
    if (timers.isHead(timer)) {
      headChanged = true;
      LockSupport.unpark(thread);
    }
    return timer;
  }

  private void timerLoop() {
    while (!timers.isClosed()) {
      headChanged = false;
      long next = timers.nextDeadline();
      if (next == TimerQueue.NO_DEADLINE) {
        LockSupport.park(this);
        continue;
      }
      long wait = next - System.nanoTime();
      if (wait > spinNanos) {
        LockSupport.parkNanos(this, wait - spinNanos);
        continue;
      }
      while (next - System.nanoTime() > 0 && !headChanged) {
        Thread.onSpinWait();
      }
      ScheduledTimer timer;
      long now = System.nanoTime();
      while ((timer = timers.pollDue(now)) != null) {
        dispatch(timer);
      }
    }
  }

  private void dispatch(ScheduledTimer timer) {
    try {
      timer.executionContext.execute(timer.task);
    } catch (RuntimeException e) {
      timer.failed(e, log);
    }
  }
}
