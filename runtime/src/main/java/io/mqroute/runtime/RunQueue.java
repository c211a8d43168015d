package io.mqroute.runtime;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The single-threaded run queue behind every virtual-time dispatcher of one ActorSystem.
 *
 * <p>Tasks submitted by the driver thread (the normal case: an actor on the driver sends to another
 * actor) go to a plain {@link ArrayDeque}, with no synchronisation. Tasks submitted by any other
 * thread are "foreign": they go to a {@link ConcurrentLinkedQueue}, are counted, and wake the
 * driver if it is waiting for them. Foreign tasks are expected only while an actor is being created
 * or the system is terminating; during a deterministic run they mean that something outside the
 * simulation reached into it. {@link VirtualTimeMessageQueue} adds foreign messages to the same
 * count, because a message to an actor whose mailbox is already scheduled never shows up here as a
 * task.
 *
 * <p>Only the driver thread may poll.
 */
final class RunQueue {
  private final ArrayDeque<Runnable> local = new ArrayDeque<>(4096);
  private final ConcurrentLinkedQueue<Runnable> foreign = new ConcurrentLinkedQueue<>();
  private final AtomicLong foreignArrivals = new AtomicLong();
  private volatile Thread driver;

  /** Messages enqueued on the driver, by label, while a census runs; null when none does. */
  private HashMap<String, long[]> census;

  /** Written by foreign threads, read by the driver when it reports a violation. */
  private volatile String lastForeignSource = "none";

  /**
   * Set by the driver just before it fires a lone timed delivery onto an empty queue (see {@link
   * VirtualTimeScheduler#deliverLone}): the next task it submits is the one the driver would run
   * next anyway, so it is kept here for the driver to run at once instead of queued. Driver thread
   * only.
   */
  private boolean takeNext;

  private Runnable taken;

  void execute(Runnable task) {
    if (Thread.currentThread() == driver) {
      if (takeNext) {
        takeNext = false;
        taken = task;
        return;
      }
      local.addLast(task);
      return;
    }
    // Count before publishing: otherwise the driver could run the task and end its run before the
    // count moves.
    foreignArrived("task " + task.getClass().getName());
    foreign.add(task);
    Thread waiting = driver;
    if (waiting != null) {
      LockSupport.unpark(waiting);
    }
  }

  /**
   * A message for a simulated actor was enqueued by a foreign thread (see {@link
   * VirtualTimeMessageQueue}).
   */
  void foreignMessageArrived(Object message) {
    foreignArrived("message " + message.getClass().getName());
  }

  private void foreignArrived(String what) {
    lastForeignSource = what + " from thread " + Thread.currentThread().getName();
    foreignArrivals.incrementAndGet();
  }

  /**
   * Makes the calling thread the driver. Rebinding is refused while tasks queued by the previous
   * driver are pending, because the local queue is not thread-safe.
   */
  void bindDriver(Thread thread) {
    Thread previous = driver;
    if (previous != null && previous != thread && !local.isEmpty()) {
      throw new IllegalStateException(
          "run queue is bound to "
              + previous.getName()
              + " and has "
              + local.size()
              + " pending tasks; it cannot be rebound to "
              + thread.getName());
    }
    driver = thread;
  }

  Thread driver() {
    return driver;
  }

  /** Starts counting the messages enqueued on the driver thread, by label (driver thread only). */
  void startCensus() {
    census = new HashMap<>();
  }

  boolean censusRunning() {
    return census != null;
  }

  /** A message enqueued on the driver thread while a census runs. */
  void count(Object message) {
    String label = message instanceof CensusLabel l ? l.censusLabel() : label(message.getClass());
    census.computeIfAbsent(label, k -> new long[1])[0]++;
  }

  /** A class as {@code Outer.Inner}, without its package. */
  static String label(Class<?> c) {
    String n = c.getName();
    return n.substring(n.lastIndexOf('.') + 1).replace('$', '.');
  }

  /** The census so far, by label (empty when none runs). */
  Map<String, Long> census() {
    Map<String, Long> out = new TreeMap<>();
    if (census != null) {
      census.forEach((k, v) -> out.put(k, v[0]));
    }
    return out;
  }

  boolean isDriverThread() {
    return Thread.currentThread() == driver;
  }

  /** The driver's next submitted task is to be kept for {@link #takeKept} (driver thread only). */
  void keepNext() {
    takeNext = true;
  }

  /** The task kept since {@link #keepNext}, or null if none was submitted; ends the keeping. */
  Runnable takeKept() {
    takeNext = false;
    Runnable t = taken;
    taken = null;
    return t;
  }

  /** No task waits, from the driver or from another thread. */
  boolean idle() {
    return local.isEmpty() && foreign.isEmpty();
  }

  Runnable pollLocal() {
    return local.pollFirst();
  }

  Runnable pollForeign() {
    return foreign.poll();
  }

  /** Foreign tasks and messages so far (monotonic). */
  long foreignArrivals() {
    return foreignArrivals.get();
  }

  /** Foreign tasks waiting to be polled. */
  int foreignTasksPending() {
    return foreign.size();
  }

  boolean hasForeign() {
    return !foreign.isEmpty();
  }

  String lastForeignSource() {
    return lastForeignSource;
  }
}
