package io.mqroute.actors.machine;

import io.mqroute.actors.machine.FlowProtocol.Ended;
import io.mqroute.actors.machine.FlowProtocol.Enqueue;
import io.mqroute.actors.machine.FlowProtocol.Evacuate;
import io.mqroute.actors.machine.FlowProtocol.Harvest;
import io.mqroute.actors.machine.FlowProtocol.OnRing;
import io.mqroute.actors.machine.FlowProtocol.PollerCommand;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.QueueFault;
import io.mqroute.actors.machine.FlowProtocol.QueueRemount;
import io.mqroute.actors.machine.FlowProtocol.QueueReport;
import io.mqroute.actors.machine.FlowProtocol.QueueStats;
import io.mqroute.actors.machine.FlowProtocol.RetryTick;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.actors.machine.FlowProtocol.Serve;
import io.mqroute.actors.machine.FlowProtocol.Served;
import io.mqroute.policies.queue.Ring;
import io.mqroute.policies.queue.RingQueue;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.LongHashSet;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One request queue (a virtqueue, or a fuse-over-io-uring ring queue): a ring of {@code ring-size}
 * slots and an overflow list, as virtio_fs_enqueue_req / virtio_fs_request_dispatch_work handle
 * them. A slot is held from the moment a request is put on the ring until its completion is
 * harvested. The ring is a {@link RingStage}, a Pekko Streams stage between this actor and its
 * {@link Poller}, and it alone counts the held slots: its demand is the free slots, an offer beyond
 * them is refused (ENOSPC), so a slow poller backpressures the queue and never sees more than
 * {@code ring-size} requests. What a refusal means is the {@link RingQueue}'s decision (park on the
 * overflow list; the delayed retry's timer, a typed timer here; the ENOMEM policy, whose V2 requeue
 * can strand a request on an empty ring), and so is the refill: a harvest releases the slots of a
 * batch of completions and refills once from the overflow list. Completions are harvested on the
 * home core, and the chaos faults (LOSE, device faults) live here. The cluster's device queue runs
 * this same actor on the real clock.
 */
public final class RequestQueue extends AbstractBehavior<QueueCommand> {
  private final int index;
  private final int homeCpu;
  private final int ringSize;
  private final RingQueue<OnRing> queue;

  /** Requests the LOSE fault will still drop. */
  private int toLose;

  private long maxWaitNanos;
  private long errors;
  private final ActorRef<PollerCommand> poller;
  private final long completionNanos;

  /**
   * Where requests are harvested and ended: the home (interrupt) CPU of a virtqueue; for a ring
   * queue the CPU its ring thread runs on (COMMIT_AND_FETCH ends the request in that thread's
   * io_uring_enter).
   */
  private ActorRef<CoreProtocol.Command> core;

  private int coreCpu;

  /** The harvest item on {@link #core} (see {@link FlowProtocol.Harvests}). */
  private FlowProtocol.Harvests harvests;

  private final boolean uring;
  private final ActorRef<RouterCommand> router;
  private final NanoClock clock;

  /** Served by the device, slot still held until the home core harvests it. */
  private final ArrayDeque<OnRing> served = new ArrayDeque<>();

  private boolean harvestPending;

  /**
   * The pending harvest's item on the core also ends the first request it harvests: that request's
   * {@link Ended} is already on the core, the item's work after the harvest.
   */
  private boolean firstEndOnCore;

  private final boolean inPlaceCore;

  /** While an in-place harvest runs: what it ended, for one {@link FlowProtocol.EndedAll}. */
  private List<Ended> harvested;

  /**
   * While an in-place queue handles a batch: what went on the ring, for one {@link
   * FlowProtocol.ServeAll} (null otherwise).
   */
  private List<Serve> offered;

  /** See {@link Settings#holdsBacklog}. */
  private final boolean holdsBacklog;

  /** The ring thread has a request and is not yet freed by its commit (holdsBacklog only). */
  private boolean threadHeld;

  /** What the ring took for the held thread, in order (holdsBacklog only). */
  private final ArrayDeque<Serve> backlog = new ArrayDeque<>();

  /** Requests in {@link #backlog} over time: they wait for the server as the poller's would. */
  private final TimeIntegral backlogTime;

  private final List<String> violations = new ArrayList<>();

  /** Ids of the requests on the ring: one that comes back and is not here is a duplicate. */
  private final LongHashSet onRingIds = new LongHashSet();

  /** Requests in the queue and on its overflow list, over time, since the queue started. */
  private final long startNanos;

  private final TimeIntegral inQueueTime;
  private final TimeIntegral overflowTime;

  /** Reports asked for, waiting for the poller's counters (asked in order, answered in order). */
  private final ArrayDeque<PendingReport> reports = new ArrayDeque<>();

  private record PendingReport(QueueStats stats, ActorRef<QueueStats> replyTo) {}

  /**
   * Everything a queue is built from.
   *
   * @param uring a fuse-io-uring ring queue (per-cpu kind): a request that waits for a slot keeps
   *     its place at the head; otherwise a virtqueue, whose dispatch work re-queues it at the tail
   * @param inPlaceCore the real CPU does the harvest and end work (a node in real time, whose core
   *     is a {@link PassThroughCore}): no hop through the core, and what one harvest ends goes to
   *     the router in one {@link FlowProtocol.EndedAll}
   * @param holdsBacklog what the ring takes while the queue's one ring thread is held goes to the
   *     thread with the commit that frees it ({@link FlowProtocol.CommitServe}), not in a {@link
   *     Serve} each: only where nothing but that commit frees the thread (one ring thread, a device
   *     that holds it to the end, no injected faults)
   */
  public record Settings(
      int index,
      int homeCpu,
      int ringSize,
      FullRingStrategy fullRing,
      EnqueueErrorPolicy enqueueError,
      double enomemProbability,
      long completionNanos,
      boolean uring,
      boolean inPlaceCore,
      boolean holdsBacklog) {}

  public static Behavior<QueueCommand> create(
      Settings s,
      RandomSource faults,
      Behavior<PollerCommand> poller,
      ActorRef<CoreProtocol.Command> core,
      ActorRef<RouterCommand> router) {
    return Behaviors.setup(ctx -> new RequestQueue(ctx, s, faults, poller, core, router));
  }

  private RequestQueue(
      ActorContext<QueueCommand> ctx,
      Settings s,
      RandomSource faults,
      Behavior<PollerCommand> pollerBehavior,
      ActorRef<CoreProtocol.Command> core,
      ActorRef<RouterCommand> router) {
    super(ctx);
    this.index = s.index();
    this.homeCpu = s.homeCpu();
    this.ringSize = s.ringSize();
    ActorRef<PollerCommand> poller =
        ctx.spawn(pollerBehavior, "poller", DispatcherSelector.sameAsParent());
    this.poller = poller;
    ActorRef<QueueCommand> self = ctx.getSelf();
    this.harvests = new FlowProtocol.Harvests(router, s.index(), s.homeCpu(), s.completionNanos());
    // The ring fused with this queue (RingStage.fused): an accepted offer reaches the poller inside
    // the offer, and the device's completion comes straight back here, not through a stream actor.
    // A ring thread's CPU may run this queue's harvest itself at the device's end (the poller
    // decides: ServedHarvested); an in-place queue harvests on its own.
    Ring<OnRing> ring =
        RingStage.fused(
            ringSize,
            (item, done) -> offer(new Serve(item, done)),
            new FlowProtocol.UsedRing(self, s.uring() && !s.inPlaceCore() ? harvests : null));
    RingQueue.Builder<OnRing> b =
        RingQueue.newBuilder(new Shell(), ring)
            .fullRing(s.fullRing())
            .enqueueError(s.enqueueError())
            .enomem(s.enomemProbability(), faults);
    this.queue = (s.uring() ? b.misfitStaysAtHead() : b).build();
    this.completionNanos = s.completionNanos();
    this.core = core;
    this.coreCpu = s.homeCpu();
    this.uring = s.uring();
    this.inPlaceCore = s.inPlaceCore();
    this.router = router;
    this.clock = NanoClock.of(ctx.getSystem());
    this.startNanos = clock.nanoTime();
    this.inQueueTime = new TimeIntegral(startNanos);
    this.overflowTime = new TimeIntegral(startNanos);
    this.holdsBacklog = s.holdsBacklog() && s.uring() && !s.inPlaceCore();
    this.backlogTime = new TimeIntegral(startNanos);
  }

  @Override
  public Receive<QueueCommand> createReceive() {
    return SwitchReceive.of(this::hot, builtReceive());
  }

  /** The request path's messages (see {@link SwitchReceive}); null for the rest. */
  private Behavior<QueueCommand> hot(QueueCommand m) {
    if (m instanceof Served s) {
      return onServed(s.item());
    }
    if (m == Harvest.INSTANCE) {
      return counted(onHarvest());
    }
    if (m instanceof FlowProtocol.ServedHarvested h) {
      return counted(onServedHarvested(h.item()));
    }
    if (m instanceof Enqueue e) {
      return counted(onEnqueue(e.request()));
    }
    if (m instanceof FlowProtocol.EnqueueAll all) {
      offered = new ArrayList<>(all.requests().size());
      for (Request r : all.requests()) {
        onEnqueue(r);
      }
      flushOffered();
      return counted(this);
    }
    if (m instanceof FlowProtocol.ServedAll all) {
      for (OnRing item : all.items()) {
        onServed(item);
      }
      return this;
    }
    return null;
  }

  private Receive<QueueCommand> builtReceive() {
    return newReceiveBuilder()
        .onMessage(RetryTick.class, m -> counted(onRetry()))
        .onMessage(QueueReport.class, this::onReport)
        .onMessage(FlowProtocol.PollerCounters.class, this::onPollerCounters)
        .onMessage(Evacuate.class, m -> counted(onEvacuate()))
        .onMessage(QueueFault.class, f -> counted(onFault(f)))
        .onMessage(QueueRemount.class, this::onRemount)
        .onMessage(
            FlowProtocol.MoveServer.class,
            m -> {
              poller.tell(m);
              if (uring) {
                core = m.core();
                coreCpu = m.cpu();
                harvests = new FlowProtocol.Harvests(router, index, coreCpu, completionNanos);
              }
              return this;
            })
        .build();
  }

  /** What the queue's decisions do besides the ring (see {@link RingQueue.Port}). */
  private final class Shell implements RingQueue.Port<OnRing> {
    /** The ring stage took the request: it is on its way to the poller. */
    @Override
    public void toRing(OnRing item) {
      onRingIds.add(item.request().id());
    }

    @Override
    public void failNoMemory(OnRing item) {
      end(item, Status.ENOMEM);
    }

    @Override
    public void armRetry(long delayNanos) {
      getContext()
          .scheduleOnce(Duration.ofNanos(delayNanos), getContext().getSelf(), RetryTick.INSTANCE);
    }
  }

  /**
   * virtio_fs_send_req (see {@link RingQueue#enqueue}), unless the LOSE fault forgets the request.
   */
  private Behavior<QueueCommand> onEnqueue(Request r) {
    long now = clock.nanoTime();
    if (toLose > 0) {
      toLose--;
      queue.acceptLost(); // the LOSE fault: accepted, then forgotten
      return this;
    }
    queue.enqueue(new OnRing(r, now), now);
    return this;
  }

  /**
   * The device is done with a request. Like the virtio IRQ scheduling done_work on the queue's CPU,
   * the first completion asks the home core for a harvest; everything completed by the time it runs
   * is harvested in one batch (virtqueue_get_buf in a loop), which frees the slots and then refills
   * once. The harvest and the first request's end are one item on that core, as the kernel runs
   * them in one context (fuse_uring_commit_fetch: fuse_uring_commit, then fuse_uring_req_end →
   * fuse_request_end; virtio_fs_requests_done_work: the harvest, then each request's end): the
   * harvest is delivered here when the item's work starts, the first request's {@link Ended} goes
   * to the router when it ends (stamped with the harvest's instant), with no hop back through this
   * queue in between.
   */
  private Behavior<QueueCommand> onServed(OnRing item) {
    served.addLast(item);
    if (!harvestPending) {
      harvestPending = true;
      if (inPlaceCore) {
        getContext().getSelf().tell(Harvest.INSTANCE);
      } else {
        firstEndOnCore = true;
        // its ring thread runs on when the ring holds other requests than this one
        core.tell(
            harvests.item(
                getContext().getSelf(),
                Harvest.INSTANCE,
                item,
                clock.nanoTime(),
                queue.onRing() > 1));
      }
    }
    return this;
  }

  /**
   * A ring thread's CPU harvests its completion from the device's end on (its only thread, held
   * until this commit: nothing else is served and waiting here), and the harvest's work starts now:
   * as a {@link Served} followed by its {@link Harvest}, the request's end already on that core.
   */
  private Behavior<QueueCommand> onServedHarvested(OnRing item) {
    if (harvestPending) {
      violations.add(
          "request " + item.request().id() + " harvested by its CPU while a harvest was pending");
    }
    served.addLast(item);
    firstEndOnCore = true;
    return onHarvest();
  }

  /** The ring stage took a request: to the poller now, or with the rest of this batch. */
  private void offer(Serve s) {
    if (offered != null) {
      offered.add(s);
    } else if (holdsBacklog && threadHeld) {
      backlog.addLast(s);
      backlogTime.set(clock.nanoTime(), backlog.size());
    } else {
      threadHeld = holdsBacklog;
      poller.tell(s);
    }
  }

  /** The ring thread is free: what it should fetch now goes with the commit. */
  private void commit() {
    if (backlog.isEmpty()) { // always, unless holdsBacklog
      threadHeld = false;
      poller.tell(FlowProtocol.Committed.INSTANCE);
    } else {
      List<Serve> next = new ArrayList<>(backlog);
      backlog.clear();
      backlogTime.set(clock.nanoTime(), 0);
      poller.tell(new FlowProtocol.CommitServe(next));
    }
  }

  /** Before anything but the request path: the held backlog goes to the thread as it would have. */
  private void releaseBacklog() {
    if (!backlog.isEmpty()) {
      for (Serve s; (s = backlog.pollFirst()) != null; ) {
        poller.tell(s);
      }
      backlogTime.set(clock.nanoTime(), 0);
    }
  }

  private void flushOffered() {
    List<Serve> batch = offered;
    offered = null;
    if (!batch.isEmpty()) {
      poller.tell(FlowProtocol.ServeAll.of(batch));
    }
  }

  private Behavior<QueueCommand> onHarvest() {
    harvestPending = false;
    boolean endOnCore = firstEndOnCore;
    firstEndOnCore = false;
    if (inPlaceCore) {
      harvested = new ArrayList<>(served.size());
      offered = new ArrayList<>();
    }
    for (OnRing item; (item = served.pollFirst()) != null; ) {
      queue.complete();
      if (!onRingIds.remove(item.request().id())) {
        violations.add("request " + item.request().id() + " came back but was not on the ring");
      }
      if (endOnCore) {
        ended(item, item.status()); // its end is the harvest item's own work
        endOnCore = false;
      } else {
        end(item, item.status());
      }
      if (item.holdsWorker()) {
        commit(); // its ring thread may fetch the next request now
      }
    }
    queue.refill(clock.nanoTime());
    if (offered != null) {
      flushOffered();
    }
    if (harvested != null) {
      List<Ended> ends = harvested;
      harvested = null;
      if (!ends.isEmpty()) {
        router.tell(FlowProtocol.EndedAll.of(ends));
      }
    }
    return this;
  }

  private Behavior<QueueCommand> onRetry() {
    queue.retry(clock.nanoTime());
    return this;
  }

  /**
   * The request has ended: pay the completion work on the home core, then let the router wake the
   * waiter.
   */
  private void end(OnRing item, Status status) {
    Ended ended = ended(item, status);
    if (harvested != null) {
      harvested.add(ended);
    } else if (inPlaceCore) {
      router.tell(ended);
    } else {
      core.tell(new CoreProtocol.Exec<>(completionNanos, Work.COMPLETION, router, ended));
    }
  }

  /** The request ends now: the queue's counters, and what tells the router. */
  private Ended ended(OnRing item, Status status) {
    long now = clock.nanoTime();
    maxWaitNanos = Math.max(maxWaitNanos, now - item.acceptedNanos());
    if (status != Status.OK) {
      errors++;
    }
    // its ring thread has other requests of this ring to serve or commit: it runs on after the
    // waiter's wake-up (the ring's slot of this one is free by now)
    return new Ended(
        item.request(), item.completion(index, status, now), coreCpu, queue.onRing() > 0);
  }

  /**
   * After a message that may have accepted, ended, parked or moved requests: the time integrals
   * take the new counts from now on.
   */
  private Behavior<QueueCommand> counted(Behavior<QueueCommand> next) {
    long now = clock.nanoTime();
    inQueueTime.set(now, queue.inFlight());
    overflowTime.set(now, queue.queued());
    return next;
  }

  /** The counters as they are now; the poller's side of the queueing follows from the poller. */
  private Behavior<QueueCommand> onReport(QueueReport q) {
    List<Long> stuck = stuckIds();
    List<String> v = new ArrayList<>(violations);
    queue.checkInvariants(v);
    long now = clock.nanoTime();
    Queueing own =
        Queueing.NONE.withQueue(
            overflowTime.area(now) + backlogTime.area(now),
            inQueueTime.area(now),
            now - startNanos);
    reports.addLast(
        new PendingReport(
            new QueueStats(
                index,
                homeCpu,
                queue.accepted(),
                queue.completed(),
                queue.maxOccupancy(),
                queue.overflowWaits(),
                queue.overflowNanos(),
                queue.delayedRetries(),
                queue.ringAttempts(),
                queue.enomem(),
                queue.onRing(),
                queue.queued(),
                v,
                stuck,
                queue.rerouted(),
                maxWaitNanos,
                errors,
                own),
            q.replyTo()));
    poller.tell(new FlowProtocol.PollerReport(getContext().getSelf()));
    return this;
  }

  private Behavior<QueueCommand> onPollerCounters(FlowProtocol.PollerCounters c) {
    PendingReport p = reports.pollFirst();
    if (p == null) {
      return this; // an answer nobody waits for
    }
    QueueStats s = p.stats();
    Queueing own = s.queueing();
    Queueing q = c.servers().withQueue(own.waitingArea(), own.inQueueArea(), own.spanNanos());
    p.replyTo()
        .tell(
            new QueueStats(
                s.queue(),
                s.homeCpu(),
                s.accepted(),
                s.completed(),
                s.maxOccupancy(),
                s.overflowWaits(),
                s.overflowNanos(),
                s.delayedRetries(),
                s.ringAttempts(),
                s.enomem(),
                s.onRing(),
                s.queued(),
                s.violations(),
                s.stuck(),
                s.rerouted(),
                s.maxWaitNanos(),
                s.errors(),
                q));
    return this;
  }

  /** blk_mq_hctx_notify_offline's spirit: nothing new waits here; queued requests go elsewhere. */
  private Behavior<QueueCommand> onEvacuate() {
    releaseBacklog();
    queue.evacuate(
        clock.nanoTime(), item -> router.tell(new FlowProtocol.Reroute(item.request(), index)));
    return this;
  }

  private Behavior<QueueCommand> onFault(QueueFault f) {
    releaseBacklog();
    Fault fault = f.fault();
    switch (fault.kind()) {
      case ENOMEM ->
          queue.setEnomemProbability(
              fault.value() == 0 ? queue.configuredEnomemProbability() : fault.value());
      // back at the full size, the storm's own requests completed: that completion refills (see
      // setRingLimit)
      case RING_LIMIT ->
          queue.setRingLimit(
              fault.value() == 0 ? ringSize : (int) Math.max(1, Math.min(ringSize, fault.value())),
              clock.nanoTime());
      case LOSE -> toLose = (int) fault.value();
      case EIO, STALL, SLOWDOWN -> poller.tell(new FlowProtocol.PollerFault(fault));
    }
    return this;
  }

  /**
   * virtio_fs_drain_queue at unmount: in_flight must be 0 by now (every job has reaped everything).
   */
  private Behavior<QueueCommand> onRemount(QueueRemount r) {
    releaseBacklog();
    List<String> problems = new ArrayList<>();
    long inFlight = queue.inFlight();
    if (inFlight != 0 || queue.onRing() != 0 || queue.queued() != 0 || !served.isEmpty()) {
      List<Long> stuck = stuckIds();
      problems.add(
          "queue "
              + index
              + " (cpu "
              + homeCpu
              + "): unmount with in_flight "
              + inFlight
              + " (on ring "
              + queue.onRing()
              + ", overflow "
              + queue.queued()
              + "): "
              + ReportLists.capped(stuck));
    }
    List<String> broken = new ArrayList<>();
    queue.checkInvariants(broken); // reported here too: a chaos run names the iteration it broke
    broken.forEach(v -> problems.add("queue " + index + ": " + v));
    // the next mount starts a fresh queue: no fault carries over (the chaos controller's open
    // windows end on their own; closing one that a remount already ended changes nothing)
    queue.resetFaults();
    toLose = 0;
    poller.tell(new FlowProtocol.PollerFault(new Fault(Fault.Kind.EIO, 0)));
    poller.tell(new FlowProtocol.PollerFault(new Fault(Fault.Kind.STALL, 0)));
    poller.tell(new FlowProtocol.PollerFault(new Fault(Fault.Kind.SLOWDOWN, 0)));
    r.replyTo().tell(new MachineProtocol.Remounted(problems));
    return this;
  }

  /** Ids of the requests still on the ring or the overflow list. */
  private List<Long> stuckIds() {
    List<Long> stuck = new ArrayList<>(onRingIds);
    stuck.sort(null);
    queue.forEachQueued(i -> stuck.add(i.request().id()));
    return stuck;
  }
}
