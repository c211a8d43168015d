package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.CpuCosts;
import io.mqroute.actors.cpu.FallbackCpu;
import io.mqroute.actors.cpu.WakeTargets;
import io.mqroute.actors.machine.FlowProtocol.CpuHotplug;
import io.mqroute.actors.machine.FlowProtocol.Ended;
import io.mqroute.actors.machine.FlowProtocol.Enqueue;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.QueueListed;
import io.mqroute.actors.machine.FlowProtocol.QueueLoads;
import io.mqroute.actors.machine.FlowProtocol.Reroute;
import io.mqroute.actors.machine.FlowProtocol.Route;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.actors.machine.FlowProtocol.RouterRemount;
import io.mqroute.actors.machine.FlowProtocol.RouterReport;
import io.mqroute.actors.machine.FlowProtocol.RouterStats;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.strategy.BackgroundAdmission;
import io.mqroute.policies.strategy.BackgroundGate;
import io.mqroute.policies.strategy.WakePolicy;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * Picks a queue for every request (fuse_uring_get_queue / virtio_fs_send_req's mq_map lookup),
 * applies background admission (fuse_request_queue_background + flush_bg_queue, or
 * fuse_uring_queue_bq_req + fuse_uring_flush_bg: the {@link BackgroundGate} the cluster's host
 * router uses too), answers "no queue" with EINVAL (foreground) or ENOTCONN (background), and on
 * the way back decrements nr_reqs and wakes the waiter on the CPU the {@link WakePolicy} picks.
 */
public final class Router extends AbstractBehavior<RouterCommand> {
  private final QueueSelector selector;
  private final MutableRoutingView view;
  private final RandomSource routing;
  private final BackgroundAdmission admission;
  private final WakePolicy wake;
  private final CpuCosts costs;
  private final List<ActorRef<QueueCommand>> queues;
  private final int[] homeCpu;
  private final List<ActorRef<CoreProtocol.Command>> cores;

  /** {@link #toCore} for {@link CoreProtocol#wakeUp}, made once. */
  private final CoreProtocol.ToCore toCoreRef = this::toCore;

  private final ActorRef<CoreProtocol.Command> pending;
  private final long pendingNanos;

  /**
   * For queues served by a group of CPUs (virtio), each CPU's queue; null when a queue has one CPU.
   */
  private final int[] cpuToQueue;

  private final NanoClock clock;
  private final WakeTargets wakeTargets;
  private final boolean rings;

  /**
   * Background requests: blocked submitters, the lists waiting for admission, and the admission
   * counters.
   */
  private final BackgroundGate<Request> gate;

  // while a RouteAll / EndedAll is handled: each queue's enqueues and each core's work, sent at its
  // end (null otherwise)
  private List<List<Request>> enqueues;
  private Map<ActorRef<CoreProtocol.Command>, List<CoreProtocol.Exec<?>>> execs;
  private long routed;
  private long noQueue;
  private final long[] routedPerQueue;

  /**
   * What a router is built from.
   *
   * @param wakeTargets where woken synchronous waiters go (select_idle_sibling); the jobs read
   *     their CPU there
   * @param rings the queues are fuse-over-io-uring rings (FR_URING): only then does
   *     wake_up_on_current_cpu apply
   */
  public record Settings(
      QueueSelector selector,
      MutableRoutingView view,
      BackgroundAdmission admission,
      WakePolicy wake,
      CpuCosts costs,
      int[] homeCpu,
      long pendingNanos,
      WakeTargets wakeTargets,
      boolean rings,
      int[] cpuToQueue) {
    /**
     * A node's router in real time: queue {@code q} homed on CPU {@code q}, no CPU costs (the real
     * CPU pays them), the waiter woken where it submitted, direct dispatch.
     */
    public static Settings ofNode(
        QueueSelector selector, MutableRoutingView view, BackgroundAdmission admission) {
      int n = view.queueCount();
      int[] homeCpu = new int[n];
      for (int q = 0; q < n; q++) {
        homeCpu[q] = q;
      }
      return new Settings(
          selector,
          view,
          admission,
          WakePolicy.WAITER_CPU,
          CpuCosts.NONE,
          homeCpu,
          0,
          null,
          false,
          null);
    }
  }

  /**
   * @param queues the queue actors by index; may still be filling while the router starts
   * @param pending a core-like single server for the fiq->pending hop, or null for direct dispatch
   */
  public static Behavior<RouterCommand> create(
      Settings s,
      RandomSource routing,
      List<ActorRef<QueueCommand>> queues,
      List<ActorRef<CoreProtocol.Command>> cores,
      ActorRef<CoreProtocol.Command> pending) {
    return Behaviors.setup(ctx -> new Router(ctx, s, routing, queues, cores, pending));
  }

  private Router(
      ActorContext<RouterCommand> ctx,
      Settings s,
      RandomSource routing,
      List<ActorRef<QueueCommand>> queues,
      List<ActorRef<CoreProtocol.Command>> cores,
      ActorRef<CoreProtocol.Command> pending) {
    super(ctx);
    this.selector = s.selector();
    this.view = s.view();
    this.routing = routing;
    this.admission = s.admission();
    this.wake = s.wake();
    this.costs = s.costs();
    this.queues = queues;
    this.homeCpu = s.homeCpu();
    this.cores = cores;
    this.pending = pending;
    this.pendingNanos = s.pendingNanos();
    this.clock = NanoClock.of(ctx.getSystem());
    this.wakeTargets = s.wakeTargets();
    this.rings = s.rings();
    this.gate =
        new BackgroundGate<>(
            admission,
            homeCpu.length,
            new BackgroundGate.Port<>() {
              @Override
              public int select(Request r) {
                return Router.this.select(r);
              }

              @Override
              public void reserve(int queue) {
                view.addNrReqs(queue, 1);
              }

              @Override
              public void dispatch(int queue, Request r) {
                Router.this.dispatch(queue, r);
              }
            });
    this.routedPerQueue = new long[homeCpu.length];
    this.cpuToQueue = s.cpuToQueue();
  }

  @Override
  public Receive<RouterCommand> createReceive() {
    return SwitchReceive.of(this::hot, builtReceive());
  }

  /** The request path's messages (see {@link SwitchReceive}); null for the rest. */
  private Behavior<RouterCommand> hot(RouterCommand m) {
    if (m instanceof Route r) {
      return onRoute(r.request());
    }
    if (m instanceof FlowProtocol.Issued i) {
      return route(i.request()); // fuse_simple_background from the io-wq worker: qid = its task_cpu
    }
    if (m instanceof Ended e) {
      return onEnded(e);
    }
    if (m instanceof FlowProtocol.RouteAll all) {
      return onRouteAll(all);
    }
    if (m instanceof FlowProtocol.EndedAll all) {
      return onEndedAll(all);
    }
    return null;
  }

  /**
   * A transport's batch of submissions: each routed as a {@link Route} would be, and each queue's
   * share sent as one message (a node's per-message cost is most of its cost per request).
   */
  private Behavior<RouterCommand> onRouteAll(FlowProtocol.RouteAll all) {
    enqueues = new ArrayList<>(queues.size());
    for (int q = 0; q < queues.size(); q++) {
      enqueues.add(null);
    }
    try {
      for (Request r : all.requests()) {
        onRoute(r);
      }
    } finally {
      List<List<Request>> batch = enqueues;
      enqueues = null;
      for (int q = 0; q < batch.size(); q++) {
        List<Request> rs = batch.get(q);
        if (rs != null) {
          queues.get(q).tell(FlowProtocol.EnqueueAll.of(rs));
        }
      }
    }
    return this;
  }

  /**
   * A transport's batch of ends: each as an {@link Ended}, each core's work sent as one message (to
   * the actor behind the core: a node's cores are one pass-through actor).
   */
  private Behavior<RouterCommand> onEndedAll(FlowProtocol.EndedAll all) {
    execs = new LinkedHashMap<>();
    try {
      for (Ended e : all.ends()) {
        onEnded(e);
      }
    } finally {
      Map<ActorRef<CoreProtocol.Command>, List<CoreProtocol.Exec<?>>> batch = execs;
      execs = null;
      batch.forEach((core, es) -> core.tell(CoreProtocol.ExecAll.of(es)));
    }
    return this;
  }

  /** Work for a core: now, or with the rest of an {@link FlowProtocol.EndedAll}'s. */
  private void toCore(int cpu, CoreProtocol.Exec<?> e) {
    ActorRef<CoreProtocol.Command> core = cores.get(cpu);
    if (execs == null) {
      core.tell(e);
    } else {
      execs.computeIfAbsent(core, k -> new ArrayList<>()).add(e);
    }
  }

  private Receive<RouterCommand> builtReceive() {
    return newReceiveBuilder()
        .onMessage(RouterReport.class, this::onReport)
        .onMessage(CpuHotplug.class, this::onHotplug)
        .onMessage(Reroute.class, this::onReroute)
        .onMessage(RouterRemount.class, this::onRemount)
        .onMessage(QueueListed.class, this::onListed)
        .onMessage(
            QueueLoads.class,
            m -> {
              List<Integer> loads = new ArrayList<>(homeCpu.length);
              for (int q = 0; q < homeCpu.length; q++) {
                loads.add(view.nrReqs(q));
              }
              m.replyTo().tell(List.copyOf(loads));
              return this;
            })
        .build();
  }

  /** A fresh submission: the submit work has run on the application's core. */
  private Behavior<RouterCommand> onRoute(Request r) {
    int task = JobPlan.jobOf(r.id());
    if (wakeTargets != null && task < wakeTargets.tasks()) {
      wakeTargets.workDone(task);
    }
    return route(r);
  }

  private Behavior<RouterCommand> route(Request r) {
    if (r.background()) {
      gate.submit(r);
    } else {
      int q = select(r);
      if (q != QueueSelector.NONE) {
        send(q, r);
      }
    }
    return this;
  }

  /** The selector's answer; NONE ends the request at once with the kernel's error for its kind. */
  private int select(Request r) {
    int q = selector.select(view, taskCpu(r.cpu()), r.background(), routing);
    if (q == QueueSelector.NONE) {
      noQueue++;
      long now = clock.nanoTime();
      Status s = r.background() ? Status.ENOTCONN : Status.EINVAL;
      r.replyTo().tell(new Completion(r.id(), s, r.submitNanos(), now, now, -1));
    }
    return q;
  }

  /**
   * The CPU the submitting task is on now: a request submitted (or held back for admission) on a
   * CPU that has since gone offline is routed from where select_fallback_rq put the task — an
   * online CPU of the same node first — since task_cpu() is never an offline CPU.
   */
  private int taskCpu(int cpu) {
    if (cpu < 0 || view.cpuOnline(cpu)) {
      return cpu;
    }
    int c = FallbackCpu.of(cpu, view.cpuCount(), view::cpuOnline, view::cpuToNode, null);
    return c < 0 ? cpu : c;
  }

  private void send(int q, Request r) {
    view.addNrReqs(q, 1);
    dispatch(q, r);
  }

  private void dispatch(int q, Request r) {
    routed++;
    routedPerQueue[q]++;
    if (pending != null) {
      pending.tell(
          new CoreProtocol.Exec<>(pendingNanos, Work.PENDING, queues.get(q), new Enqueue(r)));
    } else if (enqueues != null) {
      List<Request> rs = enqueues.get(q);
      if (rs == null) {
        rs = new ArrayList<>();
        enqueues.set(q, rs);
      }
      rs.add(r);
    } else {
      queues.get(q).tell(new Enqueue(r));
    }
  }

  private Behavior<RouterCommand> onEnded(Ended e) {
    Request r = e.request();
    Completion c = e.completion();
    int q = e.queue();
    view.addNrReqs(q, -1);
    if (r.background()) {
      gate.ended(q);
    }
    if (!r.op().hasWaiter()) {
      // args->end (fuse_release_end) runs where the request ends: no task is woken, none reaps
      r.replyTo().tell(c);
      return this;
    }
    // the waker's CPU: the queue's, or its ring thread's after hotplug moved it
    int home = e.completingCpu();
    int task = JobPlan.jobOf(r.id());
    if (wakeTargets == null || task >= wakeTargets.tasks()) {
      wakeFixed(r, c, home);
    } else if (wakeTargets.running(task)) {
      // awake (submitting, or woken for an earlier completion): the application reaps this one
      // where it runs; not a wake-up, so no iowait boost
      wakeTargets.workQueued(task);
      toCore(
          wakeTargets.taskCpu(task),
          new CoreProtocol.Exec<>(costs.reapNanos(), Work.REAP, r.replyTo(), c, false));
    } else {
      int prev = wakeTargets.taskCpu(task);
      // fuse_request_end: wake_up, or wake_up_on_current_cpu for FR_URING requests with the seed
      // 003 patch (synchronous requests only); a background request's waiter is woken by
      // io_uring's CQE task_work; virtio-fs ends requests in done_work, a kworker (!rings)
      int target =
          wake == WakePolicy.COMPLETING_CPU && rings && !r.background()
              ? wakeTargets.wakeOnCurrent(task, prev, home)
              : wakeTargets.wake(task, prev, home, !rings, e.wakerRunsOn());
      long migrate = target != prev ? costs.migrateNanos() : 0;
      wakeTargets.workQueued(task);
      if (target == home) {
        toCore(
            home,
            new CoreProtocol.Exec<>(
                costs.reapNanos() + migrate, Work.REAP, r.replyTo(), c, inIowait(r)));
      } else {
        CoreProtocol.Exec<?> woken =
            new CoreProtocol.Exec<>(
                costs.wakeNanos() + costs.reapNanos() + migrate,
                Work.WAKE,
                r.replyTo(),
                c,
                inIowait(r));
        CoreProtocol.wakeUp(home, target, costs.ipiNanos(), woken, cores, toCoreRef);
      }
    }
    return this;
  }

  /**
   * Without scheduler state (a request from outside the machine's jobs): the wake policy's fixed
   * CPU.
   */
  private void wakeFixed(Request r, Completion c, int home) {
    int target = wake.wakeCpu(r.cpu(), home);
    if (target == home || target < 0) {
      toCore(
          home, new CoreProtocol.Exec<>(costs.reapNanos(), Work.REAP, r.replyTo(), c, inIowait(r)));
    } else {
      toCore(
          target,
          new CoreProtocol.Exec<>(
              costs.wakeNanos() + costs.reapNanos(), Work.WAKE, r.replyTo(), c, inIowait(r)));
    }
  }

  /**
   * Whether the waiter slept in an I/O wait, which gets its CPU schedutil's iowait boost: an async
   * engine's application waits in io_uring_enter with requests in flight, counted as iowait
   * (io_uring since 6.5; libaio's io_getevents is not, and is approximated the same way). A
   * synchronous request's waiter sleeps in request_wait_answer, a plain wait_event: not iowait.
   */
  private static boolean inIowait(Request r) {
    return r.background();
  }

  private Behavior<RouterCommand> onHotplug(CpuHotplug h) {
    boolean[] wasOnline = new boolean[homeCpu.length];
    for (int q = 0; q < homeCpu.length; q++) {
      wasOnline[q] = view.onlineQueues().contains(q);
    }
    view.setCpuOnline(h.cpu(), h.online());
    if (cpuToQueue != null) { // a group's queue stays online while any CPU of the group is
      boolean[] groupOnline = new boolean[homeCpu.length];
      for (int c = 0; c < cpuToQueue.length; c++) {
        groupOnline[cpuToQueue[c]] |= view.cpuOnline(c);
      }
      for (int q = 0; q < homeCpu.length; q++) {
        view.setQueueOnline(q, groupOnline[q]);
      }
    }
    if (wakeTargets != null) {
      wakeTargets.setOnline(h.cpu(), h.online()); // an offline CPU is no wake-up target
    }
    if (!h.online() && h.evacuate()) {
      for (int q = 0; q < homeCpu.length; q++) {
        if (wasOnline[q] && !view.onlineQueues().contains(q)) {
          queues.get(q).tell(FlowProtocol.Evacuate.INSTANCE);
        }
      }
    }
    return this;
  }

  private Behavior<RouterCommand> onListed(QueueListed m) {
    int q = m.queue();
    if (m.listed()) {
      view.register(q);
      view.setQueueOnline(q, true);
      return this;
    }
    if (!view.unregister(q)) {
      return this;
    }
    view.setQueueOnline(q, false);
    // waiting for this queue's own admission (per-queue mode): not sent yet, so admitted anew
    for (Request r : gate.withdraw(q)) {
      view.addNrReqs(q, -1);
      route(r);
    }
    queues.get(q).tell(FlowProtocol.Evacuate.INSTANCE);
    return this;
  }

  /**
   * A request from the overflow list of a queue whose CPU went away: it keeps its admission (it was
   * already sent), moves its nr_reqs and, per queue, its active-background slot to the queue picked
   * now.
   */
  private Behavior<RouterCommand> onReroute(Reroute rr) {
    Request r = rr.request();
    int from = rr.fromQueue();
    view.addNrReqs(from, -1);
    int q = select(r);
    if (q == QueueSelector.NONE) {
      if (r.background()) {
        gate.ended(from); // it ends here: its admission is released
      }
      return this;
    }
    view.addNrReqs(q, 1);
    if (r.background()) {
      gate.moved(r, from, q);
    } else {
      dispatch(q, r);
    }
    return this;
  }

  private Behavior<RouterCommand> onRemount(RouterRemount m) {
    List<String> problems = new ArrayList<>();
    for (int q = 0; q < homeCpu.length; q++) {
      if (view.nrReqs(q) != 0) {
        problems.add("router: unmount with nr_reqs " + view.nrReqs(q) + " on queue " + q);
      }
    }
    if (admission.numBackground() != 0 || gate.blockedNow() != 0) {
      problems.add(
          "router: unmount with "
              + admission.numBackground()
              + " background request(s) counted and "
              + gate.blockedNow()
              + " blocked");
    }
    m.replyTo().tell(new MachineProtocol.Remounted(problems));
    return this;
  }

  private Behavior<RouterCommand> onReport(RouterReport r) {
    List<Long> holding = new ArrayList<>();
    gate.forEachHeld(b -> holding.add(b.id()));
    List<Integer> offlineCpus = new ArrayList<>();
    for (int c = 0; c < view.cpuCount(); c++) {
      if (!view.cpuOnline(c)) {
        offlineCpus.add(c);
      }
    }
    List<Integer> offlineQueues = new ArrayList<>();
    for (int q = 0; q < homeCpu.length; q++) {
      if (!view.onlineQueues().contains(q)) {
        offlineQueues.add(q);
      }
    }
    r.replyTo()
        .tell(
            new RouterStats(
                routed,
                noQueue,
                gate.blockedCount(),
                gate.maxNum(),
                gate.maxActive(),
                gate.breaches(),
                routedPerQueue.clone(),
                holding,
                offlineCpus,
                offlineQueues));
    return this;
  }
}
