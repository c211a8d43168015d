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
import io.mqroute.actors.runtime.NanoClock;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.QueueOfferResult;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;

/**
 * One request queue (a virtqueue, or a fuse-over-io-uring ring queue): a ring of {@code ring-size} slots and
 * an overflow list, as virtio_fs_enqueue_req / virtio_fs_request_dispatch_work handle them. A slot is held
 * from the moment a request is put on the ring until its completion is harvested. The ring feeds the poller
 * through a Pekko Stream (bounded source queue → mapAsyncUnordered), so the device's demand, not a mailbox,
 * moves requests; the queue never offers more than it has free slots.
 */
public final class RequestQueue extends AbstractBehavior<QueueCommand> {
  private final int index;
  private final int homeCpu;
  private final int ringSize;
  private final FullRingStrategy fullRing;
  private final EnqueueErrorPolicy enqueueError;
  private double enomemProbability;
  /** The configured ENOMEM rate (queues.enomem-probability): what a closed fault window returns to. */
  private final double configuredEnomem;
  /** Usable ring slots: the ring size, less during a ring-full storm. */
  private int ringLimit;
  /** Requests the LOSE fault will still drop. */
  private int toLose;
  private long rerouted;
  private long maxWaitNanos;
  private long errors;
  private final ActorRef<PollerCommand> poller;
  private final RandomSource faults;
  private final long completionNanos;
  private final ActorRef<CoreProtocol.Command> core;
  private final ActorRef<RouterCommand> router;
  private final NanoClock clock;
  private final BoundedSourceQueue<OnRing> ring;

  private final ArrayDeque<OnRing> overflow = new ArrayDeque<>();
  /** Served by the device, slot still held until the home core harvests it. */
  private final ArrayDeque<OnRing> served = new ArrayDeque<>();
  private boolean harvestPending;
  private final ArrayDeque<Long> overflowSince = new ArrayDeque<>();
  private final List<String> violations = new ArrayList<>();
  private final java.util.LinkedHashMap<Long, Request> onRingIds = new java.util.LinkedHashMap<>();
  private int onRing;
  private boolean retryArmed;
  private long accepted;
  private long completed;
  private int maxOccupancy;
  private long overflowWaits;
  private long overflowNanos;
  private long delayedRetries;
  private long enomem;
  private long ringAttempts;

  /** Everything a queue is built from. */
  public record Settings(
      int index, int homeCpu, int ringSize, FullRingStrategy fullRing, EnqueueErrorPolicy enqueueError,
      double enomemProbability, long completionNanos) {}

  public static Behavior<QueueCommand> create(Settings s, RandomSource faults,
      Behavior<PollerCommand> poller, ActorRef<CoreProtocol.Command> core, ActorRef<RouterCommand> router) {
    return Behaviors.setup(ctx -> new RequestQueue(ctx, s, faults, poller, core, router));
  }

  private RequestQueue(ActorContext<QueueCommand> ctx, Settings s,
      RandomSource faults, Behavior<PollerCommand> pollerBehavior, ActorRef<CoreProtocol.Command> core,
      ActorRef<RouterCommand> router) {
    super(ctx);
    this.index = s.index();
    this.homeCpu = s.homeCpu();
    this.ringSize = s.ringSize();
    this.fullRing = s.fullRing();
    this.enqueueError = s.enqueueError();
    this.enomemProbability = s.enomemProbability();
    this.configuredEnomem = s.enomemProbability();
    this.faults = faults;
    this.completionNanos = s.completionNanos();
    this.core = core;
    this.router = router;
    this.clock = NanoClock.of(ctx.getSystem());
    this.ringLimit = ringSize;
    ActorRef<PollerCommand> poller = ctx.spawn(pollerBehavior, "poller", DispatcherSelector.sameAsParent());
    this.poller = poller;
    ActorRef<QueueCommand> self = ctx.getSelf();
    this.ring = Source.<OnRing>queue(ringSize)
        .mapAsyncUnordered(ringSize, item -> {
          CompletableFuture<OnRing> done = new CompletableFuture<>();
          poller.tell(new Serve(item, done));
          return done;
        })
        .to(Sink.foreach(item -> self.tell(new Served(item))))
        .run(Materializer.createMaterializer(ctx));
  }

  @Override
  public Receive<QueueCommand> createReceive() {
    return newReceiveBuilder()
        .onMessage(Enqueue.class, this::onEnqueue)
        .onMessage(Served.class, this::onServed)
        .onMessage(Harvest.class, m -> onHarvest())
        .onMessage(RetryTick.class, m -> onRetry())
        .onMessage(QueueReport.class, this::onReport)
        .onMessage(Evacuate.class, m -> onEvacuate())
        .onMessage(QueueFault.class, this::onFault)
        .onMessage(QueueRemount.class, this::onRemount)
        .onMessage(FlowProtocol.MoveServer.class, m -> {
          poller.tell(m);
          return this;
        })
        .build();
  }

  private enum Add { OK, ENOSPC, ENOMEM }

  /** virtqueue_add_sgs: a free slot, or -ENOSPC when the ring is full, or an injected -ENOMEM. */
  private Add addToRing(OnRing item) {
    ringAttempts++;
    if (enomemProbability > 0 && faults.nextDouble() < enomemProbability) {
      enomem++;
      return Add.ENOMEM;
    }
    if (onRing >= ringLimit) {
      return Add.ENOSPC;
    }
    onRing++;
    maxOccupancy = Math.max(maxOccupancy, onRing);
    onRingIds.put(item.request().id(), item.request());
    QueueOfferResult r = ring.offer(item);
    if (r != QueueOfferResult.enqueued()) {
      violations.add("ring stream refused request " + item.request().id() + " with " + onRing + "/" + ringSize
          + " slots held: " + r);
    }
    return Add.OK;
  }

  /** virtio_fs_send_req: try the ring; park on the overflow list on -ENOSPC; -ENOMEM per the policy. */
  private Behavior<QueueCommand> onEnqueue(Enqueue e) {
    long now = clock.nanoTime();
    accepted++;
    if (toLose > 0) {
      toLose--;
      return this; // the LOSE fault: accepted, then forgotten
    }
    OnRing item = new OnRing(e.request(), now);
    switch (addToRing(item)) {
      case OK -> { }
      case ENOSPC -> park(item, now);
      case ENOMEM -> {
        if (enqueueError.requeueOnNoMemory()) {
          park(item, now); // the V2 bug: nothing but a completion will look at it again
        } else {
          end(item, Status.ENOMEM);
        }
      }
    }
    return this;
  }

  private void park(OnRing item, long now) {
    overflow.addLast(item);
    overflowSince.addLast(now);
    overflowWaits++;
    armRetry();
  }

  private void armRetry() {
    if (!fullRing.refillsOnCompletion() && !retryArmed) {
      retryArmed = true;
      getContext().scheduleOnce(Duration.ofNanos(fullRing.retryDelayNanos()), getContext().getSelf(),
          RetryTick.INSTANCE);
    }
  }

  /**
   * The device is done with a request. Like the virtio IRQ scheduling done_work on the queue's CPU, the first
   * completion asks the home core for a harvest; everything completed by the time it runs is harvested in
   * one batch (virtqueue_get_buf in a loop), which frees the slots and then refills once.
   */
  private Behavior<QueueCommand> onServed(Served s) {
    served.addLast(s.item());
    if (!harvestPending) {
      harvestPending = true;
      core.tell(new CoreProtocol.Exec<>(0, Work.COMPLETION, getContext().getSelf(), Harvest.INSTANCE));
    }
    return this;
  }

  private Behavior<QueueCommand> onHarvest() {
    harvestPending = false;
    for (OnRing item; (item = served.pollFirst()) != null; ) {
      onRing--;
      if (onRingIds.remove(item.request().id()) == null) {
        violations.add("request " + item.request().id() + " came back but was not on the ring");
      }
      end(item, item.status());
    }
    if (fullRing.refillsOnCompletion()) {
      dispatchQueued();
    }
    return this;
  }

  private Behavior<QueueCommand> onRetry() {
    retryArmed = false;
    delayedRetries++;
    dispatchQueued();
    if (!overflow.isEmpty()) {
      armRetry();
    }
    return this;
  }

  /**
   * virtio_fs_request_dispatch_work: move queued requests to the ring from the head; the first that does not
   * fit goes back to the TAIL (so a refill reorders the overflow list, as the kernel does).
   */
  private void dispatchQueued() {
    long now = clock.nanoTime();
    while (!overflow.isEmpty()) {
      OnRing item = overflow.pollFirst();
      long since = overflowSince.pollFirst();
      Add r = addToRing(item);
      if (r == Add.OK) {
        overflowNanos += now - since;
        continue;
      }
      if (r == Add.ENOMEM && !enqueueError.requeueOnNoMemory()) {
        overflowNanos += now - since;
        end(item, Status.ENOMEM);
        continue;
      }
      overflow.addLast(item);
      overflowSince.addLast(since);
      return;
    }
  }

  /** The request has ended: pay the completion work on the home core, then let the router wake the waiter. */
  private void end(OnRing item, Status status) {
    completed++;
    Request r = item.request();
    long now = clock.nanoTime();
    maxWaitNanos = Math.max(maxWaitNanos, now - item.acceptedNanos());
    if (status != Status.OK) {
      errors++;
    }
    Completion c = new Completion(r.id(), status, r.submitNanos(), item.acceptedNanos(), now, index);
    core.tell(new CoreProtocol.Exec<>(completionNanos, Work.COMPLETION, router, new Ended(r, c)));
  }

  private Behavior<QueueCommand> onReport(QueueReport q) {
    List<Long> stuck = stuckIds();
    List<String> v = new ArrayList<>(violations);
    if (onRing > ringSize || onRing < 0) {
      v.add("ring occupancy " + onRing + " outside [0, " + ringSize + "]");
    }
    long inFlight = accepted - completed - rerouted;
    if (inFlight != onRing + overflow.size()) {
      v.add("in_flight " + inFlight + " != on_ring " + onRing + " + queued " + overflow.size());
    }
    q.replyTo().tell(new QueueStats(index, homeCpu, accepted, completed, maxOccupancy, overflowWaits,
        overflowNanos, delayedRetries, ringAttempts, enomem, onRing, overflow.size(), v, stuck, rerouted,
        maxWaitNanos, errors));
    return this;
  }

  /** blk_mq_hctx_notify_offline's spirit: nothing new waits here; queued requests go elsewhere. */
  private Behavior<QueueCommand> onEvacuate() {
    long now = clock.nanoTime();
    while (!overflow.isEmpty()) {
      OnRing item = overflow.pollFirst();
      overflowNanos += now - overflowSince.pollFirst();
      rerouted++;
      router.tell(new FlowProtocol.Reroute(item.request(), index));
    }
    return this;
  }

  private Behavior<QueueCommand> onFault(QueueFault f) {
    Fault fault = f.fault();
    switch (fault.kind()) {
      case ENOMEM -> enomemProbability = fault.value() == 0 ? configuredEnomem : fault.value();
      case RING_LIMIT -> {
        ringLimit = fault.value() == 0 ? ringSize : (int) Math.max(1, Math.min(ringSize, fault.value()));
        if (ringLimit == ringSize && fullRing.refillsOnCompletion()) {
          dispatchQueued(); // the storm's own requests completed: that completion refills
        }
      }
      case LOSE -> toLose = (int) fault.value();
      case EIO, STALL, SLOWDOWN -> poller.tell(new FlowProtocol.PollerFault(fault));
    }
    return this;
  }

  /** virtio_fs_drain_queue at unmount: in_flight must be 0 by now (every job has reaped everything). */
  private Behavior<QueueCommand> onRemount(QueueRemount r) {
    List<String> problems = new ArrayList<>();
    long inFlight = accepted - completed - rerouted;
    if (inFlight != 0 || onRing != 0 || !overflow.isEmpty() || !served.isEmpty()) {
      List<Long> stuck = stuckIds();
      problems.add("queue " + index + " (cpu " + homeCpu + "): unmount with in_flight " + inFlight + " (on ring "
          + onRing + ", overflow " + overflow.size() + "): " + stuck);
    }
    // the next mount starts a fresh queue: no fault carries over (the chaos controller's open windows end
    // on their own; closing one that a remount already ended changes nothing)
    enomemProbability = configuredEnomem;
    ringLimit = ringSize;
    toLose = 0;
    poller.tell(new FlowProtocol.PollerFault(new Fault(Fault.Kind.EIO, 0)));
    poller.tell(new FlowProtocol.PollerFault(new Fault(Fault.Kind.STALL, 0)));
    poller.tell(new FlowProtocol.PollerFault(new Fault(Fault.Kind.SLOWDOWN, 0)));
    r.replyTo().tell(new MachineProtocol.Remounted(problems));
    return this;
  }

  /** Ids of the requests still on the ring or the overflow list. */
  private List<Long> stuckIds() {
    List<Long> stuck = new ArrayList<>(onRingIds.keySet());
    overflow.forEach(i -> stuck.add(i.request().id()));
    return stuck;
  }
}
