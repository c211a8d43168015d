package io.mqroute.runtime;

import com.typesafe.config.Config;
import java.io.Closeable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.AbstractScheduler;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Pekko scheduler plug-in with a virtual nanosecond clock; also the owner of the run queue that
 * virtual-time dispatchers ({@link VirtualTimeExecutorConfigurator}) feed. Selected with {@code
 * pekko.scheduler.implementation = "io.mqroute.runtime.VirtualTimeScheduler"} (see {@link
 * ClockMode}).
 *
 * <p>Nothing happens by itself: the clock stands still and timers never fire until a {@link
 * VirtualTimeDriver} on the driver thread runs the ready tasks and, when none are left, jumps the
 * clock to the earliest deadline. Timers fire inline on the driver thread in (deadline, sequence)
 * order and ignore their {@link ExecutionContext}: typed timers pass the parasitic context anyway
 * and stream timers only post a message, while dispatching a timer to a real thread pool would race
 * with the driver.
 *
 * <p>The clock starts at 0 when the ActorSystem is created. Deadlines are {@code now + delay} with
 * negative delays treated as 0 and overflow saturated.
 */
public final class VirtualTimeScheduler extends AbstractScheduler implements Closeable, NanoClock {
  private final LoggingAdapter log;
  private final RuntimeSettings settings;
  private final AtomicLong sequences = new AtomicLong();

  /** Pekko's timers (cancellable, from any thread). */
  private final TimerQueue timers = new TimerQueue(sequences);

  /** The driver's own timed deliveries ({@link #scheduleAt} on the driver thread); no lock. */
  private final DeliveryHeap deliveries = new DeliveryHeap();

  private final RunQueue runQueue = new RunQueue();

  /** The lone timed delivery {@link #fireDue(long, boolean)} left for {@link #deliverLone}. */
  private TimedDelivery lone;

  /**
   * Written only by the driver thread; read by any thread that schedules a timer or asks for the
   * time.
   */
  private volatile long now;

  /**
   * The constructor Pekko calls reflectively.
   *
   * @param config the ActorSystem's configuration ({@code mqroute.runtime} is read from it)
   * @param log where failures of timer tasks are reported
   * @param threadFactory unused: this scheduler owns no thread
   */
  public VirtualTimeScheduler(Config config, LoggingAdapter log, ThreadFactory threadFactory) {
    this.log = log;
    this.settings = RuntimeSettings.from(config);
  }

  /**
   * The virtual-time scheduler of {@code system}.
   *
   * @throws IllegalStateException if the system was not created with {@link ClockMode#VIRTUAL}'s
   *     configuration
   */
  public static VirtualTimeScheduler of(ClassicActorSystemProvider system) {
    Scheduler scheduler = system.classicSystem().scheduler();
    if (scheduler instanceof VirtualTimeScheduler virtual) {
      return virtual;
    }
    throw new IllegalStateException(
        "ActorSystem "
            + system.classicSystem().name()
            + " does not run in virtual time: pekko.scheduler.implementation is "
            + scheduler.getClass().getName()
            + "; create it with ClockMode.VIRTUAL.config()");
  }

  @Override
  public Cancellable scheduleOnce(
      FiniteDuration delay, Runnable runnable, ExecutionContext executor) {
    return timers.addOnce(now, delay, runnable, executor);
  }

  /** Fixed-rate timer: fires at {@code now + initialDelay + k * interval}, k = 0, 1, 2, ... */
  // Deprecated in Pekko for callers (scheduleAtFixedRate is the API), but still the abstract hook
  // it delegates to.
  @SuppressWarnings("deprecation")
  @Override
  public Cancellable schedule(
      FiniteDuration initialDelay,
      FiniteDuration interval,
      Runnable runnable,
      ExecutionContext executor) {
    return timers.addFixedRate(now, initialDelay, interval, runnable, executor);
  }

  /**
   * A one-shot task at an absolute virtual instant ({@code now} if it has passed), without a Pekko
   * wrapper: the driver runs it inline when the clock reaches it (see {@link TimedDelivery}).
   */
  void scheduleAt(long deadlineNanos, Runnable task) {
    long deadline = Math.min(Math.max(now, deadlineNanos), TimerQueue.NO_DEADLINE - 1);
    if (!runQueue.isDriverThread()) {
      timers.add(deadline, 0L, task, null);
      return;
    }
    if (timers.isClosed()) {
      throw new IllegalStateException("scheduler is closed; cannot schedule " + task);
    }
    deliveries.add(deadline, sequences.getAndIncrement(), task);
  }

  /** One nanosecond resolution. */
  @Override
  public double maxFrequency() {
    return 1.0e9;
  }

  /**
   * Pekko's contract for a closeable scheduler: run the pending {@link Scheduler.TaskRunOnClose}
   * tasks.
   */
  @Override
  public void close() {
    timers.closeAndRunOnCloseTasks(log);
    if (runQueue.isDriverThread()) {
      deliveries
          .clear(); // timed deliveries are never run-on-close tasks; elsewhere the driver is gone
    }
  }

  /** Virtual nanoseconds since the ActorSystem was created. */
  @Override
  public long nanoTime() {
    return now;
  }

  /** Deadline of the earliest pending timer, or {@link Long#MAX_VALUE} when there is none. */
  public long nextDeadline() {
    long own = deliveries.isEmpty() ? TimerQueue.NO_DEADLINE : deliveries.headDeadline();
    // the published head may be a cancelled timer: ask under the lock only when it could be first
    return timers.publishedHeadDeadline() < own ? Math.min(own, timers.nextDeadline()) : own;
  }

  /** Number of timers that are neither cancelled nor (one-shot) fired. */
  public int pendingTimers() {
    return timers.liveCount() + deliveries.size();
  }

  // ---- used by the driver and the executor configurator (same package) ----

  RunQueue runQueue() {
    return runQueue;
  }

  RuntimeSettings settings() {
    return settings;
  }

  ExecutorService newExecutorService() {
    return new RunQueueExecutor(runQueue);
  }

  /**
   * Sets the clock to {@code instant} (never backwards) and fires, inline, every timer due at or
   * before it, including timers that the fired tasks schedule for that same instant.
   *
   * @return the number of timers fired
   */
  long fireDue(long instant) {
    return fireDue(instant, false);
  }

  /**
   * As {@link #fireDue(long)}; with {@code deliverLone}, a timed delivery that is the only thing
   * due at the instant, onto an empty run queue, is left to the driver ({@link #deliverLone}):
   * firing stops there.
   */
  long fireDue(long instant, boolean deliverLone) {
    if (instant > now) {
      now = instant;
    }
    long fired = 0;
    while (true) {
      boolean own = !deliveries.isEmpty() && deliveries.headDeadline() <= now;
      long ownDeadline = own ? deliveries.headDeadline() : TimerQueue.NO_DEADLINE;
      long ownSequence = own ? deliveries.headSequence() : Long.MAX_VALUE;
      long d = timers.publishedHeadDeadline();
      if (d <= now
          && (d < ownDeadline
              || (d == ownDeadline && timers.publishedHeadSequence() < ownSequence))) {
        // Pekko's timer may come first (in (deadline, sequence) order); the lock decides, and
        // drops a cancelled head, which republishes it
        ScheduledTimer timer = timers.pollDueBefore(now, ownDeadline, ownSequence);
        if (timer != null) {
          fired++;
          try {
            timer.task.run();
          } catch (RuntimeException e) {
            timer.failed(e, log);
          }
          continue;
        }
        if (!own) {
          continue; // the published head changed: look again
        }
      }
      if (!own) {
        return fired;
      }
      Runnable task = deliveries.poll();
      fired++;
      if (deliverLone && task instanceof TimedDelivery td && runQueue.idle() && !dueAtNow()) {
        lone = td;
        return fired;
      }
      try {
        task.run();
      } catch (RuntimeException e) {
        log.error(e, "timed delivery {} failed", task);
      }
    }
  }

  /**
   * Delivers the lone timed delivery the last {@link #fireDue(long, boolean)} left, if any. Its
   * message's mailbox run would be the only task and run next, so it runs now, as part of this
   * event: an idle receiver gets the message straight ({@link VirtualTimeDispatcher#invokeIdle}),
   * any other is told and the run that starts is taken from the run queue and run. Nothing runs in
   * another order than with queuing. Driver thread only.
   *
   * @return true if a mailbox run was part of this event
   */
  boolean deliverLone() {
    TimedDelivery d = lone;
    if (d == null) {
      return false;
    }
    lone = null;
    if (d.deliverNow()) {
      return true;
    }
    runQueue.keepNext();
    try {
      d.run();
    } catch (RuntimeException e) {
      log.error(e, "timed delivery {} failed", d);
    }
    Runnable run = runQueue.takeKept();
    if (run == null) {
      return false;
    }
    try {
      run.run();
    } catch (RuntimeException e) {
      reportTaskFailure(e, run);
    }
    return true;
  }

  /** Something else is due at {@code now}: a delivery, or (as far as published) a Pekko timer. */
  private boolean dueAtNow() {
    return (!deliveries.isEmpty() && deliveries.headDeadline() <= now)
        || timers.publishedHeadDeadline() <= now;
  }

  void reportTaskFailure(RuntimeException e, Runnable task) {
    log.error(e, "virtual-time task {} failed", task);
  }

  /**
   * Moves the clock forward to {@code instant} without firing anything; the caller knows no timer
   * is due before.
   */
  void advanceClockTo(long instant) {
    if (instant > now) {
      now = instant;
    }
  }
}
