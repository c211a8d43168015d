package io.mqroute.runtime;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.stream.SystemMaterializer;
import scala.concurrent.Future;

/**
 * Runs one virtual-time ActorSystem on the thread that created the driver (the driver thread).
 *
 * <p>Typical sequence (what {@link SimSystem} does):
 *
 * <ol>
 *   <li>{@link #bindToCurrentThread} right after the ActorSystem is created;
 *   <li>{@link #awaitStart}: the start barrier. The root (the system's guardian on {@link
 *       SimDispatcher}) and some Pekko internals are created from other threads, so without it the
 *       driver could find the queue empty and jump the clock, or receive their tasks in the middle
 *       of a run;
 *   <li>{@link #runUntil} a done condition or a virtual horizon: the deterministic part;
 *   <li>{@link #terminate}.
 * </ol>
 *
 * <p>All methods must be called on the driver thread. Several systems may run concurrently, one
 * driver thread each.
 */
public final class VirtualTimeDriver {
  /**
   * Upper bound of one wait for foreign work; the done condition may be completed by another
   * thread.
   */
  private static final long PARK_SLICE_NANOS = 1_000_000L;

  private final VirtualTimeScheduler scheduler;
  private final RunQueue queue;
  private final Thread thread;

  /** Counters of the current {@link #runUntil}; driver thread only. */
  private long runTasks;

  private long runTimers;

  private long runDelivered;

  /** The loop's place between done checks and its livelock count; driver thread only. */
  private int untilCheck;

  private long atInstant;
  private long maxAtInstant;
  private long instant;

  private VirtualTimeDriver(VirtualTimeScheduler scheduler) {
    this.scheduler = scheduler;
    this.queue = scheduler.runQueue();
    this.thread = Thread.currentThread();
    queue.bindDriver(thread);
  }

  /**
   * Binds the run queue of {@code system} to the calling thread: tasks this thread submits are
   * queued without synchronisation, tasks from any other thread count as foreign.
   *
   * @throws IllegalStateException if the system does not run in virtual time
   */
  public static VirtualTimeDriver bindToCurrentThread(ClassicActorSystemProvider system) {
    return new VirtualTimeDriver(VirtualTimeScheduler.of(system));
  }

  /**
   * As {@link #bindToCurrentThread(ClassicActorSystemProvider)}, for a scheduler used without an
   * ActorSystem.
   */
  public static VirtualTimeDriver bindToCurrentThread(VirtualTimeScheduler scheduler) {
    return new VirtualTimeDriver(scheduler);
  }

  /**
   * Counts from now on every message sent on the driver thread, by class (or {@link CensusLabel}):
   * the hops of a request's path. Deterministic, like the run; costs a map update per message, so
   * only for diagnosis ({@code mqroute bench --census}).
   */
  public void startCensus() {
    requireDriverThread();
    queue.startCensus();
  }

  /** Messages counted since {@link #startCensus}, by label, sorted by label; empty without one. */
  public Map<String, Long> census() {
    return queue.census();
  }

  /** The scheduler (and virtual clock) this driver runs. */
  public VirtualTimeScheduler scheduler() {
    return scheduler;
  }

  /**
   * Runs tasks as they arrive, from this thread or others, until {@code done} is true; never fires
   * a timer, so virtual time does not move. Used as the start barrier.
   *
   * @return true if {@code done} became true, false if {@code wallTimeout} passed first
   */
  public boolean pumpUntil(BooleanSupplier done, Duration wallTimeout) {
    return pump(done, wallTimeout, Long.MAX_VALUE);
  }

  /**
   * The start barrier: makes Pekko finish creating what it puts on the simulation dispatcher
   * asynchronously, then runs tasks as they arrive (never advancing virtual time) until {@code
   * rootStarted} is true and no task from another thread is pending. After it returns, a
   * deterministic run may begin.
   *
   * <p>In virtual time the system materializer's stream supervisor lives on the simulation
   * dispatcher (it follows {@code pekko.stream.materializer.dispatcher}); its guardian creates it
   * from a Pekko thread some time after the system has started, which would otherwise land in the
   * middle of a run.
   *
   * @return true if started within {@code wallTimeout}
   */
  public boolean awaitStart(
      ClassicActorSystemProvider system, BooleanSupplier rootStarted, Duration wallTimeout) {
    requireDriverThread();
    // Blocks until the supervisor's creation has been queued here (its guardian replies right after
    // actorOf).
    SystemMaterializer.get(system).materializer();
    return pumpUntil(() -> rootStarted.getAsBoolean() && !queue.hasForeign(), wallTimeout);
  }

  /**
   * The deterministic discrete-event loop: runs ready tasks in FIFO order until the queue is empty,
   * then moves the clock to the earliest timer deadline and fires every timer due at that instant,
   * and repeats.
   *
   * <p>{@code done} is evaluated every {@code mqroute.runtime.check-done-every} tasks and whenever
   * the queue drains. The run returns when it is true ({@link RunStats.StopReason#DONE}), when the
   * next deadline lies beyond {@code horizonNanos} (the clock is then set to the horizon; {@code
   * HORIZON}), or when there is neither a ready task nor a timer ({@code IDLE}). Always give a
   * finite horizon: periodic timers keep the timer queue non-empty forever, so without one a
   * condition that never becomes true spins for ever.
   *
   * @param horizonNanos absolute virtual time (nanoseconds since system start) the run must not
   *     pass
   * @throws ForeignTaskException if a task from another thread was pending at the start, arrived,
   *     or ran during the run (the run stops right after running such a task)
   */
  public RunStats runUntil(long horizonNanos, BooleanSupplier done) {
    requireDriverThread();
    long wallStart = System.nanoTime();
    long startVirtual = scheduler.nanoTime();
    long arrivalsAtStart = queue.foreignArrivals();
    long foreignAtStart = queue.foreignTasksPending();
    runTasks = 0;
    runTimers = 0;
    runDelivered = 0;
    RunStats.StopReason reason =
        foreignAtStart > 0
            ? RunStats.StopReason.FOREIGN_TASK
            : loop(horizonNanos, done, arrivalsAtStart);
    long foreign = foreignAtStart + (queue.foreignArrivals() - arrivalsAtStart);
    RunStats stats =
        new RunStats(
            foreign > 0 ? RunStats.StopReason.FOREIGN_TASK : reason,
            runTasks,
            runTimers,
            runDelivered,
            startVirtual,
            scheduler.nanoTime(),
            foreign,
            System.nanoTime() - wallStart);
    if (foreign > 0) {
      throw new ForeignTaskException(stats, queue.lastForeignSource());
    }
    return stats;
  }

  private RunStats.StopReason loop(long horizonNanos, BooleanSupplier done, long arrivalsAtStart) {
    int checkEvery = scheduler.settings().checkDoneEvery();
    boolean deliverLone = scheduler.settings().deliverLoneRuns();
    maxAtInstant = scheduler.settings().maxTasksPerInstant();
    untilCheck = checkEvery;
    atInstant = 0;
    instant = scheduler.nanoTime();
    while (true) {
      Runnable task;
      while ((task = queue.pollLocal()) != null || (task = queue.pollForeign()) != null) {
        runTask(task);
        runTasks++;
        RunStats.StopReason stop = afterTask(done, arrivalsAtStart, checkEvery);
        if (stop != null) {
          return stop;
        }
      }
      if (done.getAsBoolean()) {
        return RunStats.StopReason.DONE;
      }
      long next = scheduler.nextDeadline();
      if (next == TimerQueue.NO_DEADLINE) {
        return RunStats.StopReason.IDLE;
      }
      if (next > horizonNanos) {
        scheduler.advanceClockTo(horizonNanos);
        return RunStats.StopReason.HORIZON;
      }
      runTimers += scheduler.fireDue(next, deliverLone);
      if (scheduler.nanoTime() != instant) {
        instant = scheduler.nanoTime();
        atInstant = 0;
      }
      // a lone timed delivery's receiver run as part of the timer's event: checked as a task is
      if (scheduler.deliverLone()) {
        runDelivered++;
        RunStats.StopReason stop = afterTask(done, arrivalsAtStart, checkEvery);
        if (stop != null) {
          return stop;
        }
      }
    }
  }

  /** The checks after every mailbox run; null to go on. */
  private RunStats.StopReason afterTask(
      BooleanSupplier done, long arrivalsAtStart, int checkEvery) {
    if (++atInstant > maxAtInstant) {
      if (scheduler.nanoTime() == instant) {
        return RunStats.StopReason.LIVELOCK;
      }
      instant = scheduler.nanoTime();
      atInstant = 0;
    }
    if (queue.foreignArrivals() != arrivalsAtStart) {
      return RunStats.StopReason.FOREIGN_TASK;
    }
    if (--untilCheck == 0) {
      untilCheck = checkEvery;
      if (done.getAsBoolean()) {
        return RunStats.StopReason.DONE;
      }
    }
    return null;
  }

  /**
   * Terminates {@code system} and runs its shutdown on this thread until it has terminated. If
   * nothing arrives for {@code mqroute.runtime.terminate-idle-advance} of wall time, the clock
   * jumps to the next timer, in case shutdown code waits on one. Not deterministic, and need not
   * be.
   *
   * @return true if the system terminated within {@code wallTimeout}
   */
  public boolean terminate(ClassicActorSystemProvider system, Duration wallTimeout) {
    ActorSystem classic = system.classicSystem();
    classic.terminate();
    Future<?> terminated = classic.whenTerminated();
    return pump(
        terminated::isCompleted,
        wallTimeout,
        scheduler.settings().terminateIdleAdvance().toNanos());
  }

  private boolean pump(BooleanSupplier done, Duration wallTimeout, long idleAdvanceNanos) {
    requireDriverThread();
    long wallDeadline = System.nanoTime() + wallTimeout.toNanos();
    long idleSince = System.nanoTime();
    long ran = 0;
    while (!done.getAsBoolean()) {
      // foreign first: shutdown is driven from Pekko's own threads, and a livelocked model must not
      // starve it
      Runnable task = queue.pollForeign();
      if (task == null) {
        task = queue.pollLocal();
      }
      if (task != null) {
        runTask(task);
        idleSince = System.nanoTime();
        if ((++ran & 1023) == 0 && idleSince - wallDeadline >= 0) {
          return false;
        }
        continue;
      }
      long wallNow = System.nanoTime();
      if (wallNow - wallDeadline >= 0) {
        return false;
      }
      if (wallNow - idleSince >= idleAdvanceNanos) {
        long next = scheduler.nextDeadline();
        if (next != TimerQueue.NO_DEADLINE) {
          scheduler.fireDue(next);
          idleSince = wallNow;
          continue;
        }
      }
      if (!queue.hasForeign()) {
        LockSupport.parkNanos(this, Math.min(PARK_SLICE_NANOS, wallDeadline - wallNow));
      }
    }
    return true;
  }

  private void runTask(Runnable task) {
    try {
      task.run();
    } catch (RuntimeException e) {
      // A mailbox handles actor failures itself; what escapes is a bug in a plain Runnable. Report
      // it and keep the
      // simulation going, as a thread pool would.
      scheduler.reportTaskFailure(e, task);
    }
  }

  private void requireDriverThread() {
    Thread current = Thread.currentThread();
    if (current != thread || queue.driver() != thread) {
      throw new IllegalStateException(
          "virtual-time driver bound to thread "
              + thread.getName()
              + " (run queue bound to "
              + (queue.driver() == null ? "none" : queue.driver().getName())
              + ") called from "
              + current.getName());
    }
  }
}
