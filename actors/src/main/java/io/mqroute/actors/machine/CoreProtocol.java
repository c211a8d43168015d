package io.mqroute.actors.machine;

import io.mqroute.runtime.CensusLabel;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of the Core actor: the CPU work flow of every request passes through these. */
public final class CoreProtocol {
  private CoreProtocol() {}

  /** The request path ({@link Data}) or the rest ({@link Control}). */
  public sealed interface Command permits Data, Control {}

  /** A request's path: CPU work to run, and the end of the piece that runs. */
  public sealed interface Data extends Command permits Exec, ExecAll, Tick {}

  /** Everything else: CPU hotplug, reports. */
  public sealed interface Control extends Command permits SetOnline, Report {}

  /**
   * Run {@code costNanos} of work at full speed, then send {@code message} to {@code to}.
   *
   * @param iowait the work wakes a thread that slept in an I/O wait (p->in_iowait): its enqueue
   *     asks schedutil for an iowait boost (enqueue_task_fair →
   *     cpufreq_update_util(SCHED_CPUFREQ_IOWAIT))
   * @param thenNanos the message goes out this long after the work ends, not at its end: a FUSE
   *     server thread's work followed by a device time known when the work was handed over (the
   *     device runs off this CPU, so the core is free meanwhile); 0 for every other item
   * @param start delivered when the work starts (after the core's C-state exit), before its cost is
   *     paid; the message then takes that instant ({@link StartStamped}). A fuse-over-io-uring ring
   *     thread's commit (fuse_uring_commit_fetch → fuse_uring_commit: the slot is harvested) whose
   *     fuse_uring_req_end → fuse_request_end is the item's work, in one context. Null for every
   *     other item
   */
  public record Exec<T>(
      long costNanos,
      Work kind,
      ActorRef<T> to,
      T message,
      boolean iowait,
      long thenNanos,
      Start<?> start)
      implements Data, CensusLabel {
    /** Work with no delivery at its start. */
    public Exec(
        long costNanos, Work kind, ActorRef<T> to, T message, boolean iowait, long thenNanos) {
      this(costNanos, kind, to, message, iowait, thenNanos, null);
    }

    /** Work whose iowait-ness follows from its kind alone ({@link Work#iowaitWakeup()}). */
    public Exec(long costNanos, Work kind, ActorRef<T> to, T message) {
      this(costNanos, kind, to, message, kind.iowaitWakeup());
    }

    /** Work whose message goes out when it ends. */
    public Exec(long costNanos, Work kind, ActorRef<T> to, T message, boolean iowait) {
      this(costNanos, kind, to, message, iowait, 0);
    }

    /** By the work and what it delivers when done: one row per kind of CPU hop. */
    @Override
    public String censusLabel() {
      String n = message.getClass().getName();
      return "CoreProtocol.Exec(" + kind + " -> " + n.substring(n.lastIndexOf('.') + 1) + ")";
    }
  }

  /**
   * What an {@link Exec} delivers when its work starts: {@code message} to {@code to}, at that
   * instant (a timed delivery when the core first leaves a C-state).
   */
  public record Start<F>(ActorRef<F> to, F message) {}

  /**
   * A message that carries the instant its item's work started ({@link Exec#start}): the core
   * stamps it then, as the queue would have read its clock at the commit.
   */
  public interface StartStamped<T> {
    T startedAt(long nanos);
  }

  /**
   * Hands {@code work}, the first item of a thread woken on CPU {@code target} by a thread on CPU
   * {@code waker} (-1: none of the machine's), to the target's core: when the wake-up crosses CPUs
   * and IPIs cost ({@code machine.cpu.ipi-cost}), through an item of that cost on the waker's core
   * whose end delivers it.
   *
   * @param send how the caller gives an item to a CPU's core (at once, or in its batch)
   */
  public static void wakeUp(
      int waker,
      int target,
      long ipiNanos,
      Exec<?> work,
      List<ActorRef<Command>> cores,
      ToCore send) {
    if (sendsIpi(waker, target, ipiNanos)) {
      send.send(waker, new Exec<Command>(ipiNanos, Work.IPI, cores.get(target), work));
    } else {
      send.send(target, work);
    }
  }

  /**
   * Whether a wake-up from CPU {@code waker} (-1: none) onto {@code target} costs the waker an IPI.
   */
  public static boolean sendsIpi(int waker, int target, long ipiNanos) {
    return ipiNanos > 0 && waker >= 0 && waker != target;
  }

  /**
   * How an actor gives CPU {@code cpu}'s core an item; held in a field, so that a wake-up on the
   * request path allocates no lambda and boxes no CPU number.
   */
  @FunctionalInterface
  public interface ToCore {
    void send(int cpu, Exec<?> item);
  }

  /** Work items in order, as that many {@link Exec}s in a row (the wake-ups of a batch of ends). */
  public record ExecAll(List<Exec<?>> work) implements Data {
    /** The {@link Exec} itself for one item, else an {@code ExecAll}. */
    public static Data of(List<Exec<?>> work) {
      return work.size() == 1 ? work.get(0) : new ExecAll(work);
    }
  }

  /**
   * Take the core offline (its queued and future work runs on {@code migrateTo}, as the kernel
   * migrates the tasks of a dying CPU) or back online ({@code migrateTo} null).
   */
  public record SetOnline(boolean online, ActorRef<Command> migrateTo) implements Control {}

  /** Ask for the core's counters. */
  public record Report(ActorRef<CoreStats> replyTo) implements Control {}

  /** The running item has finished (a timer). */
  enum Tick implements Data {
    INSTANCE
  }

  /**
   * @param busyNanos time spent on work and on C-state exits
   * @param items pieces of work run
   * @param wakeups idle → busy transitions
   * @param cstateExits exits per C-state (shallow to deep)
   * @param nanosByKind full-speed cost of the work run, per {@link Work} kind
   * @param switchNanos context switches between the application and a server thread
   * @param exitNanos time spent leaving C-states
   * @param stretchNanos time work took beyond its full-speed cost, the core running below its
   *     maximum frequency
   * @param byKind items per {@link Work} kind
   * @param online whether the CPU is online at the end of the run
   * @param inWork ids of the requests whose CPU work (submit, completion, reap, ...) is running or
   *     waiting on this core when it reports
   */
  public record CoreStats(
      int cpu,
      long busyNanos,
      long items,
      long wakeups,
      long[] cstateExits,
      long[] nanosByKind,
      long switchNanos,
      long exitNanos,
      long stretchNanos,
      long[] byKind,
      boolean online,
      List<Long> inWork,
      long sleepWakeNanos) {}
}
