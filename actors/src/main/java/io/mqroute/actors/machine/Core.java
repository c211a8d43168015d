package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.CState;
import io.mqroute.actors.cpu.CoreModel;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.cpu.SleepWakeCost;
import io.mqroute.actors.cpu.WakeTargets;
import io.mqroute.actors.machine.CoreProtocol.Command;
import io.mqroute.actors.machine.CoreProtocol.CoreStats;
import io.mqroute.actors.machine.CoreProtocol.Exec;
import io.mqroute.actors.machine.CoreProtocol.Report;
import io.mqroute.actors.machine.CoreProtocol.SetOnline;
import io.mqroute.actors.machine.CoreProtocol.Tick;
import io.mqroute.protocol.Completion;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.TimedDelivery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One CPU: runs its work one item at a time, first come first served, in (virtual) nanoseconds,
 * with C-state exits and the frequency governor of {@link CoreModel}. Work of zero cost on an idle
 * core passes straight through, and on a busy one it passes the work of other threads (see {@link
 * #preemptsForNothing}), so with all costs zero the machine is pure queueing even when a request's
 * service is CPU work on a core its harvest, end and wake-up also use.
 */
public final class Core extends AbstractBehavior<Command> {
  private final int cpu;
  private final NanoClock clock;
  private final ActorContext<Command> ctx;
  private final CoreModel model;
  private final ArrayDeque<Exec<?>> queue = new ArrayDeque<>();
  private final long[] byKind = new long[Work.values().length];

  /**
   * Queued items per thread (Work.thread() + 1: kernel context, application, server thread, io-wq
   * worker).
   */
  private final int[] waitingByThread = new int[4];

  /** Full-speed cost of the work run, per kind, and of the context switches between threads. */
  private final long[] nanosByKind = new long[Work.values().length];

  private long switchNanosTotal;
  private Exec<?> running;

  /** The end of the item running or last run here; {@link Long#MIN_VALUE} before the first. */
  private long runningEnd = Long.MIN_VALUE;

  /**
   * The running item's result, delivered to its receiver straight from its end instant (no Tick):
   * null when a Tick ends it instead, because work waits behind it. An item that started on an idle
   * core is known to end at {@code runningEnd} the moment it arrives, so the core need not wake up
   * at its end unless something is queued by then; it notices the end lazily ({@link #settle}).
   */
  private TimedDelivery direct;

  /** The running item's result is already on its way: its Tick only starts the next item. */
  private boolean resultOut;

  private ActorRef<Command> migrateTo;
  private final TimedDelivery.Clock deliveries;

  /**
   * Without C-states a zero-cost item takes no time at any frequency: deliver it without a timer.
   */
  private final boolean neverSleeps;

  private final long switchNanos;

  /** The thread (Work.thread()) that ran last: a different task thread costs a context switch. */
  private int lastThread = -1;

  /** Where this core publishes whether it is idle, for wake-up placement; null when nobody asks. */
  private final WakeTargets wakeTargets;

  /** What a server thread pays when it runs after this core slept. */
  private final SleepWakeCost sleepWake;

  /**
   * Work that arrives behind other work is started on arrival too (issue #18): its start is the end
   * of the item before it and its result a timed delivery from its own end, so no {@code Tick} is
   * needed. Exact only when nothing can change a queued item's timing before it starts: the
   * performance governor (an iowait wake-up in between would change schedutil's frequency) and no
   * CPU hotplug (migrate_tasks would take it away). Off otherwise.
   */
  private final boolean planAhead;

  /** Plan-ahead: the items after the running one, in order, each with its end and delivery. */
  private final ArrayDeque<Planned> planned = new ArrayDeque<>();

  /** Plan-ahead: the end of the last item started (running or planned). */
  private long planEnd = Long.MIN_VALUE;

  private record Planned(Exec<?> item, long end, TimedDelivery delivery) {}

  /**
   * @param switchNanos cost of switching between the application and a server thread on this core
   * @param wakeTargets the machine's scheduler state this core publishes its idleness to, or null
   */
  public static Behavior<Command> create(
      int cpu, List<CState> cstates, Governor governor, long switchNanos, WakeTargets wakeTargets) {
    return create(cpu, cstates, governor, switchNanos, 0, wakeTargets, false);
  }

  /**
   * @param sleepWakeNanos a server thread's CPU time for a sleep–wake cycle in which this core
   *     slept ({@link SleepWakeCost})
   * @param planAhead start work that arrives behind other work on arrival ({@link #planAhead}):
   *     only with the performance governor and without CPU hotplug
   */
  public static Behavior<Command> create(
      int cpu,
      List<CState> cstates,
      Governor governor,
      long switchNanos,
      long sleepWakeNanos,
      WakeTargets wakeTargets,
      boolean planAhead) {
    if (planAhead && governor.schedutil()) {
      throw new IllegalArgumentException("plan-ahead needs the performance governor");
    }
    return Behaviors.setup(
        ctx ->
            new Core(
                ctx, cpu, cstates, governor, switchNanos, sleepWakeNanos, wakeTargets, planAhead));
  }

  private Core(
      ActorContext<Command> ctx,
      int cpu,
      List<CState> cstates,
      Governor governor,
      long switchNanos,
      long sleepWakeNanos,
      WakeTargets wakeTargets,
      boolean planAhead) {
    super(ctx);
    this.planAhead = planAhead;
    this.cpu = cpu;
    this.deliveries = TimedDelivery.of(ctx.getSystem());
    this.clock = deliveries;
    this.ctx = ctx;
    this.model = new CoreModel(cstates, governor, clock.nanoTime());
    this.neverSleeps = cstates.isEmpty();
    this.switchNanos = switchNanos;
    this.wakeTargets = wakeTargets;
    this.sleepWake = new SleepWakeCost(sleepWakeNanos);
  }

  @Override
  public Receive<Command> createReceive() {
    return SwitchReceive.of(
        this::hot,
        newReceiveBuilder()
            .onMessage(SetOnline.class, this::onSetOnline)
            .onMessage(Report.class, this::onReport)
            .build());
  }

  /** The request path's messages (see {@link SwitchReceive}); null for the rest. */
  private Behavior<Command> hot(Command m) {
    if (m instanceof Exec<?> e) {
      return onExec(e);
    }
    if (m instanceof CoreProtocol.ExecAll all) {
      for (Exec<?> e : all.work()) {
        onExec(e);
      }
      return this;
    }
    return m == Tick.INSTANCE ? onTick() : null;
  }

  private Behavior<Command> onExec(Exec<?> e) {
    if (migrateTo != null) {
      migrateTo.tell(e);
      return this;
    }
    long now = clock.nanoTime();
    settle(now);
    if (e.iowait()) {
      model.iowaitWakeup(now); // at enqueue, busy or idle, as enqueue_task_fair asks for it
    }
    if (running != null && e.start() != null && preemptsForNothing(e.kind(), 0)) {
      // the start's delivery is a zero-cost piece of another context than the running one: it
      // preempts for nothing, as a zero-cost item of its own would; the item's work waits its turn
      e = started(e, now);
    }
    if (running != null) {
      if (preemptsForNothing(e.kind(), e.costNanos())) {
        byKind[e.kind().ordinal()]++;
        deliver(e);
        return this;
      }
      if (planAhead) {
        plan(e);
        publishLoad();
        return this;
      }
      queue.addLast(e);
      waitingByThread[e.kind().thread() + 1]++;
      if (direct != null && running.thenNanos() > 0) {
        // the result leaves after the end (Exec.thenNanos), on its own timer, so its
        // delivery cannot become the Tick: the end needs a Tick of its own (settle above left this
        // item running, so its end is still ahead)
        deliveries.at(runningEnd, ctx.getSelf(), Tick.INSTANCE);
        direct = null;
        resultOut = true;
      } else if (direct != null) {
        // the running item's end must now start the next one: its delivery becomes the Tick, which
        // delivers the result itself (one timer either way)
        if (direct.redirect(ctx.getSelf(), Tick.INSTANCE)) {
          direct = null;
        } else {
          // real time only: the end has passed and the result is out; the next item starts now
          endDirect();
          startQueued(now);
        }
      }
      publishLoad();
      return this;
    }
    if (e.costNanos() == 0 && neverSleeps) {
      byKind[e.kind().ordinal()]++;
      deliver(started(e, now));
      return this;
    }
    sleepWake.coreWakes(model.sleptUntil(now));
    begin(e, model.start(now, cost(e)), now);
    publishLoad();
    return this;
  }

  /**
   * An item delivered straight from its end has finished by {@code now}: the core is free since
   * then, as a Tick at that instant would have left it.
   */
  private void settle(long now) {
    if (planAhead) {
      // the items that have ended by now, and the one running now (their results are on their way)
      while (running != null && now >= runningEnd) {
        Planned p = planned.pollFirst();
        if (p == null) {
          endDirect();
          return;
        }
        waitingByThread[p.item().kind().thread() + 1]--;
        running = p.item();
        runningEnd = p.end();
        direct = p.delivery();
      }
      return;
    }
    if (direct != null && now >= runningEnd) {
      endDirect();
    }
  }

  /** The item delivered straight from its end has ended: the core is free since then. */
  private void endDirect() {
    direct = null;
    running = null;
    model.finish(runningEnd);
  }

  /** The oldest queued item, no longer waiting; null for none. */
  private Exec<?> pollQueued() {
    Exec<?> next = queue.pollFirst();
    if (next != null) {
      waitingByThread[next.kind().thread() + 1]--;
    }
    return next;
  }

  /** Real time, a redirect too late: what a Tick would have done, without the delivery. */
  private void startQueued(long now) {
    Exec<?> next = pollQueued();
    if (next != null) {
      sleepWake.coreWakes(model.sleptUntil(now));
      begin(next, model.start(now, cost(next)), now);
    }
  }

  /**
   * Plan-ahead: the item starts when the last one started ends, as the Tick there would start it,
   * with the same cost and model (nothing between now and then can change them, see {@link
   * #planAhead}); its result leaves from its end.
   */
  private void plan(Exec<?> e) {
    long end = model.continueWith(planEnd, cost(e));
    Exec<?> s = startedAndCounted(e);
    planned.addLast(new Planned(s, end, deliverAt(end + s.thenNanos(), s)));
    waitingByThread[s.kind().thread() + 1]++;
    planEnd = end;
  }

  /**
   * Zero-cost work of another thread than the busy core's runs at once instead of waiting behind
   * it: an interrupt (vring_interrupt) or a woken task (wakeup_preempt) preempts the running one,
   * and preempting for no time delays it by none. It still waits behind work of its own thread
   * (running or queued: a thread's work keeps its order) and, for a task, when the switch costs.
   */
  private boolean preemptsForNothing(Work kind, long costNanos) {
    int t = kind.thread();
    return costNanos == 0
        && (t < 0 || switchNanos == 0)
        && running.kind().thread() != t
        && waitingByThread[t + 1] == 0;
  }

  private void publishLoad() {
    if (wakeTargets != null && planAhead) {
      // busy until the last planned item's end, as the Tick path is (queued items, then the last
      // one's end)
      wakeTargets.load(cpu, 0, planEnd);
      return;
    }
    if (wakeTargets != null) {
      // a directly delivered item is busy until its end without telling anyone when it ends; an
      // item ended by a Tick is busy until that same instant (its thread is still rq->curr then:
      // WakeTargets.idle), whichever message of that instant comes first
      wakeTargets.load(
          cpu,
          (running == null || direct != null ? 0 : 1) + queue.size(),
          direct != null || running == null ? runningEnd : Long.MIN_VALUE);
    }
  }

  private long cost(Exec<?> e) {
    int t = e.kind().thread();
    if (t < 0) {
      return e.costNanos(); // interrupt / kworker context: no task switch modelled
    }
    long sw = lastThread >= 0 && lastThread != t ? switchNanos : 0;
    switchNanosTotal += sw;
    lastThread = t;
    return e.costNanos() + sw + sleepWake.charge(e.kind().wokenThread());
  }

  private void begin(Exec<?> item, long end, long now) {
    Exec<?> e = startedAndCounted(item);
    running = e;
    runningEnd = end;
    planEnd = end;
    if (queue.isEmpty()) {
      direct = deliverAt(end + e.thenNanos(), e);
    } else {
      deliveries.at(end, ctx.getSelf(), Tick.INSTANCE);
    }
  }

  /** The item the model just started ({@link CoreModel#workStart}), in this core's counters. */
  private Exec<?> startedAndCounted(Exec<?> item) {
    Exec<?> e = started(item, model.workStart());
    byKind[e.kind().ordinal()]++;
    nanosByKind[e.kind().ordinal()] += e.costNanos();
    return e;
  }

  /**
   * The item's work starts at {@code startNanos}: its {@link Exec#start} is delivered then (at once
   * when that is now, otherwise from that instant), and what it is left with is the work and a
   * message stamped with that instant.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private Exec<?> started(Exec<?> e, long startNanos) {
    CoreProtocol.Start<?> s = e.start();
    if (s == null) {
      return e;
    }
    if (startNanos <= clock.nanoTime()) {
      ((ActorRef) s.to()).tell(s.message());
    } else {
      deliveries.at(startNanos, (ActorRef) s.to(), s.message());
    }
    Object m =
        e.message() instanceof CoreProtocol.StartStamped<?> st
            ? st.startedAt(startNanos)
            : e.message();
    return new Exec<>(
        e.costNanos(), e.kind(), (ActorRef) e.to(), m, e.iowait(), e.thenNanos(), null);
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private TimedDelivery deliverAt(long end, Exec<?> e) {
    return deliveries.at(end, (ActorRef) e.to(), e.message());
  }

  private Behavior<Command> onTick() {
    Exec<?> done = running;
    running = null;
    if (resultOut) {
      resultOut = false;
    } else {
      deliver(done);
    }
    Exec<?> next = pollQueued();
    if (next == null) {
      model.finish(runningEnd);
    } else {
      begin(next, model.continueWith(runningEnd, cost(next)), clock.nanoTime());
    }
    publishLoad();
    return this;
  }

  /** The item's result, now that it has ended: at once, or {@link Exec#thenNanos()} later. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private void deliver(Exec<?> e) {
    if (e.thenNanos() > 0) {
      deliveries.after(e.thenNanos(), (ActorRef) e.to(), e.message());
    } else {
      ((ActorRef) e.to()).tell(e.message());
    }
  }

  /**
   * takedown_cpu + migrate_tasks: what is queued here (and what comes later) runs on {@code
   * migrateTo}.
   */
  private Behavior<Command> onSetOnline(SetOnline s) {
    if (planAhead && !s.online()) {
      throw new IllegalStateException("core " + cpu + " plans ahead and cannot go offline");
    }
    settle(clock.nanoTime());
    migrateTo = s.online() ? null : s.migrateTo();
    if (migrateTo != null) {
      for (Exec<?> e; (e = pollQueued()) != null; ) {
        migrateTo.tell(e);
      }
    }
    return this;
  }

  private Behavior<Command> onReport(Report r) {
    r.replyTo()
        .tell(
            new CoreStats(
                cpu,
                model.busyNanos(),
                model.items(),
                model.wakeups(),
                model.cstateExits(),
                nanosByKind.clone(),
                switchNanosTotal,
                model.exitNanos(),
                model.stretchNanos(),
                byKind.clone(),
                migrateTo == null,
                requestsInWork(),
                sleepWake.paidNanos()));
    return this;
  }

  /**
   * The requests whose CPU work is running or waiting here (a submit, a pending-queue hop, a
   * completion, a wake-up or reap): held by this CPU, neither on a queue nor lost.
   */
  private List<Long> requestsInWork() {
    List<Long> ids = new ArrayList<>();
    // an item delivered from its end is here until that delivery has happened
    if (running != null && (direct == null || !direct.delivered())) {
      addRequest(running, ids);
    }
    queue.forEach(e -> addRequest(e, ids));
    for (Planned p : planned) {
      if (!p.delivery().delivered()) {
        addRequest(p.item(), ids);
      }
    }
    return ids;
  }

  private static void addRequest(Exec<?> e, List<Long> ids) {
    Object m = e.message();
    if (m instanceof Exec<?> next) { // an IPI: the woken thread's work goes on after it
      addRequest(next, ids);
    } else if (m instanceof FlowProtocol.Route r) {
      ids.add(r.request().id());
    } else if (m instanceof FlowProtocol.Issued i) {
      ids.add(i.request().id());
    } else if (m instanceof JobProtocol.IoWqIssued i) {
      ids.add(i.request().id());
    } else if (m instanceof FlowProtocol.Enqueue q) {
      ids.add(q.request().id());
    } else if (m instanceof FlowProtocol.Ended d) {
      ids.add(d.request().id());
    } else if (m instanceof Completion c) {
      ids.add(c.id());
    }
  }
}
