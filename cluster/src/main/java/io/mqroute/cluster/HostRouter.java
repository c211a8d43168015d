package io.mqroute.cluster;

import io.mqroute.cluster.HostRouterProtocol.Command;
import io.mqroute.cluster.HostRouterProtocol.Completed;
import io.mqroute.cluster.HostRouterProtocol.CompletedBatch;
import io.mqroute.cluster.HostRouterProtocol.DrainAnnounced;
import io.mqroute.cluster.HostRouterProtocol.Flush;
import io.mqroute.cluster.HostRouterProtocol.GetSlots;
import io.mqroute.cluster.HostRouterProtocol.GetWaiting;
import io.mqroute.cluster.HostRouterProtocol.ListingChanged;
import io.mqroute.cluster.HostRouterProtocol.NodeGone;
import io.mqroute.cluster.HostRouterProtocol.NodeReachable;
import io.mqroute.cluster.HostRouterProtocol.NodeRemoved;
import io.mqroute.cluster.HostRouterProtocol.Slots;
import io.mqroute.cluster.HostRouterProtocol.Submit;
import io.mqroute.cluster.HostRouterProtocol.SubmitBatch;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.strategy.BackgroundGate;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.UniqueAddress;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The request router of a host node (role {@code host}): follows the Receptionist listing of {@link
 * DeviceQueue#QUEUES}, picks a queue for each client {@link Request} with a {@link QueueSelector}
 * ({@code fuse_uring_get_queue} over a cluster) and relays the device's {@link Completion} back.
 *
 * <p>Flow: a client sends {@link Submit}; the router forwards the request to the chosen queue under
 * a router-unique id with {@code replyTo} = its device-reply child (never the client entry),
 * remembering the client's id, ref and the queue's slot; the device's completion comes back, is
 * matched by that id and by the queue index of the slot's queue (anything else is dropped and
 * counted in /status), relabelled with the client's id and forwarded. Exactly one completion per
 * request: when a queue leaves the listing (its node left, was removed or became unreachable),
 * every request in flight on it ends with {@link Status#ENOTCONN} at once and its slot is
 * unregistered; a completion that arrives for such a request later is dropped. With no queue at
 * all, a background request ends with ENOTCONN and a foreground one with EINVAL, as the kernel
 * answers a NULL queue.
 *
 * <p>Window per queue: at most {@code queueWindow} requests are sent to one queue at once (the
 * device's ring); more wait here, in a deque per slot, and are sent as the queue completes earlier
 * ones. Keeping them on the host is what lets a lost device's queued requests be re-routed: when
 * its queue leaves, the requests sent to it end with ENOTCONN (their fate is unknown), while the
 * ones still waiting here are routed again over the remaining queues (ENOTCONN/EINVAL as above when
 * none is left). A queue that (re)appears gets a slot and is used at once.
 *
 * <p>Graceful leave: a queue can also leave the listing because its node is shutting down in order:
 * it announces that with {@link QueueDraining} and then withdraws (see {@link DeviceQueue}). If it
 * announced and its node is reachable in this router's own view (kept from the membership events,
 * not from {@code Cluster.state()}, which is updated asynchronously), the requests sent to it are
 * not lost: they wait for their completions in {@link Draining}, and end with ENOTCONN only if the
 * node becomes unreachable or is removed first, or after {@link #DRAIN_TIMEOUT}. A queue that
 * leaves without announcing stopped (crash, supervision) while its node may well be up: nothing
 * will answer, so its requests in flight end with ENOTCONN at once.
 *
 * <p>Batches: requests for a queue are not sent one by one. They collect in the slot's outbox until
 * a {@code Flush} that the router sends itself when the first one is added, and leave as one {@link
 * RequestBatch}; the device answers with {@link CompletionBatch}es. Under load the outbox gathers
 * everything that arrived while the mailbox was busy (no timer, no added latency when idle: the
 * Flush is just the next message).
 *
 * <p>Clients reach the router through the Receptionist: it registers a {@link Request} endpoint
 * under {@link #ROUTERS}, so a client node only needs the wire messages {@link Request} and {@link
 * Completion}.
 *
 * <p>Background requests ({@link Request#background()}) pass the virtual-time router's admission
 * first, the same {@link BackgroundGate}: at most {@code max-background} of them are on the queues
 * at once (per-queue mode: plus one on any queue that has none, fuse_uring_flush_bg), the rest wait
 * on the host (per queue, after the queue was picked, or globally, picked when admitted), and
 * submitters beyond {@code max-background} counted requests are blocked until one ends. When a
 * queue leaves, the background requests it held give their admission back: the ones routed again
 * are admitted anew, the ones it finishes while draining are no longer counted.
 *
 * <p>Queues get slots (routing-view queue indices) in a stable order, see {@link QueueSlots}.
 */
public final class HostRouter extends AbstractBehavior<HostRouterProtocol.Command> {
  /**
   * The Receptionist key of every host router's client endpoint (requests in, completions to
   * replyTo).
   */
  public static final ServiceKey<Request> ROUTERS =
      ServiceKey.create(Request.class, "mqroute-router");

  /** The drain timer of one node incarnation. */
  private record DrainTimer(UniqueAddress node) {}

  /** Longer than a device's drain (the service-requests-done phase, 15 s in mqroute-node.conf). */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(20);

  /**
   * A client's request on this host: {@code forward} is what goes to a queue (router id, no
   * replyTo); the completion goes to {@code client}, or into {@code batchClient}'s next batch when
   * the client sent a batch.
   */
  private record InFlight(
      long clientId,
      ActorRef<Completion> client,
      ActorRef<CompletionBatch> batchClient,
      Request forward,
      long arrivalNanos,
      int slot,
      int queueIndex) {
    InFlight toSlot(int newSlot) {
      return new InFlight(clientId, client, batchClient, forward, arrivalNanos, newSlot, -1);
    }

    /** Left to drain: the queue index its completion must carry ({@code -1}: not known yet). */
    InFlight expecting(int index) {
      return new InFlight(clientId, client, batchClient, forward, arrivalNanos, slot, index);
    }
  }

  /**
   * Completions refused: not from the queue the request was sent to (Completion.queue), see
   * complete.
   */
  static final String DROPPED_WRONG_QUEUE = "completion-wrong-queue";

  private final QueueSelector selector;
  private final SeededRandom random;
  private final MutableRoutingView view;
  private final BackgroundGate<InFlight> gate;
  private final QueueSlots<ActorRef<Request>> slots;
  private final int queueWindow;
  // per slot: ids sent to the queue, and ids waiting here for room in its window (arrival order)
  private final List<Set<Long>> inFlightBySlot;
  private final List<ArrayDeque<Long>> waitingBySlot;
  private final HashMap<Long, InFlight> inFlight = new HashMap<>();
  // the devices' reply endpoint (completions, drain announcements): a child, not the client entry
  // (see create)
  private final ActorRef<CompletionBatch> batchReplies;
  // per slot: the queue index (Completion.queue) of the queue on it, learned from its first
  // matching completion
  private final int[] queueIndexOf;
  // per slot: requests routed to the queue but not yet sent (see Flush), and the slots that have
  // any
  private final List<ArrayList<Request>> outbox;
  private final ArrayDeque<Integer> dirty = new ArrayDeque<>();
  // completions for batch clients, sent at the next Flush
  private final HashMap<ActorRef<CompletionBatch>, ArrayList<Completion>> clientOutbox =
      new HashMap<>();
  private boolean flushPending;
  private final NanoClock clock = NanoClock.SYSTEM;
  private final NodeMetrics metrics;
  private final NodeMetrics.QueueGauge[] gauges;
  private final TimerScheduler<Command> timers;
  private final boolean clusterSystem;
  private final Draining<UniqueAddress, InFlight> draining = new Draining<>();
  // queues that announced a graceful drain, and their node's incarnation
  private final HashMap<ActorRef<Request>, UniqueAddress> announcedDrains = new HashMap<>();
  // nodes this router saw become unreachable and not yet reachable again
  // (UnreachableMember/ReachableMember)
  private final Set<UniqueAddress> unreachable = new HashSet<>();
  private long nextId;

  public static Behavior<Command> create(HostRouterSettings settings) {
    return Behaviors.setup(
        ctx -> Behaviors.withTimers(timers -> new HostRouter(ctx, timers, settings)));
  }

  private HostRouter(
      ActorContext<Command> ctx, TimerScheduler<Command> timers, HostRouterSettings s) {
    super(ctx);
    this.timers = timers;
    this.clusterSystem =
        ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster");
    this.selector = Selectors.create(s.selector());
    this.random = SeededRandom.stream(s.seed(), "host-router");
    // one CPU per slot: the view needs a topology, and the cluster has no host CPUs to model (yet)
    this.view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, s.maxQueues()))
            .queues(s.maxQueues())
            .registered()
            .build();
    this.slots = new QueueSlots<>(s.maxQueues(), ref -> ref.path().toString());
    this.gate =
        new BackgroundGate<>(
            s.newAdmission(),
            s.maxQueues(),
            new BackgroundGate.Port<>() {
              @Override
              public int select(InFlight f) {
                return pick(f);
              }

              @Override
              public void reserve(int slot) {
                view.addNrReqs(slot, 1);
              }

              @Override
              public void dispatch(int slot, InFlight f) {
                place(f, slot);
              }
            });
    this.queueWindow = s.queueWindow();
    this.inFlightBySlot = new ArrayList<>(s.maxQueues());
    this.waitingBySlot = new ArrayList<>(s.maxQueues());
    this.outbox = new ArrayList<>(s.maxQueues());
    for (int i = 0; i < s.maxQueues(); i++) {
      inFlightBySlot.add(new HashSet<>());
      waitingBySlot.add(new ArrayDeque<>());
      outbox.add(new ArrayList<>());
    }
    this.metrics = NodeMetrics.get(ctx.getSystem());
    this.gauges = new NodeMetrics.QueueGauge[s.maxQueues()];
    this.queueIndexOf = new int[s.maxQueues()];
    Arrays.fill(queueIndexOf, -1);
    // All message adapters of an actor share one ref, and the client entry is one: were completions
    // adapted
    // there too, any client could complete other clients' requests. The devices' replies
    // (completions, batches,
    // drain announcements) get a child of their own, under an unguessable name as it is reachable
    // by path.
    ActorRef<Command> me = ctx.getSelf();
    ActorRef<Object> replies =
        ctx.spawn(
            Behaviors.receive(Object.class)
                .onAnyMessage(
                    m -> {
                      if (m instanceof CompletionBatch b) {
                        me.tell(new CompletedBatch(b));
                      } else if (m instanceof Completion c) {
                        me.tell(new Completed(c));
                      } else if (m instanceof QueueDraining d) {
                        me.tell(new DrainAnnounced(d));
                      }
                      return Behaviors.same();
                    })
                .build(),
            "device-replies-" + Long.toHexString(new SecureRandom().nextLong()));
    this.batchReplies = replies.narrow();
    // All message adapters of an actor share one ref, and the Receptionist watches a subscriber and
    // a registered
    // service with different messages: the same ref cannot be both. The listing and the membership
    // events
    // (rare) come through a child.
    ActorRef<Command> self = ctx.getSelf();
    ActorRef<Object> events =
        ctx.spawn(
            Behaviors.receive(Object.class)
                .onAnyMessage(
                    e -> {
                      if (e instanceof Receptionist.Listing l) {
                        self.tell(new ListingChanged(l));
                      } else if (e instanceof ClusterEvent.MemberRemoved m) {
                        self.tell(new NodeRemoved(m.member().uniqueAddress()));
                        self.tell(new NodeGone(m.member().uniqueAddress(), "was removed", false));
                      } else if (e instanceof ClusterEvent.UnreachableMember m) {
                        self.tell(
                            new NodeGone(m.member().uniqueAddress(), "became unreachable", true));
                      } else if (e instanceof ClusterEvent.ReachableMember m) {
                        self.tell(new NodeReachable(m.member().uniqueAddress()));
                      }
                      return Behaviors.same();
                    })
                .build(),
            "events");
    ctx.getSystem()
        .receptionist()
        .tell(Receptionist.subscribe(DeviceQueue.QUEUES, events.narrow()));
    if (clusterSystem) {
      Cluster.get(ctx.getSystem())
          .subscriptions()
          .tell(Subscribe.create(events.narrow(), ClusterEvent.MemberRemoved.class));
      Cluster.get(ctx.getSystem())
          .subscriptions()
          .tell(Subscribe.create(events.narrow(), ClusterEvent.UnreachableMember.class));
      Cluster.get(ctx.getSystem())
          .subscriptions()
          .tell(Subscribe.create(events.narrow(), ClusterEvent.ReachableMember.class));
    }
    ActorRef<Request> entry = ctx.messageAdapter(Request.class, Submit::new);
    ctx.messageAdapter(
        RequestBatch.class, SubmitBatch::new); // the same ref: clients may send batches to it
    ctx.getSystem().receptionist().tell(Receptionist.register(ROUTERS, entry));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submit.class, this::onSubmit)
        .onMessage(
            Completed.class,
            c -> {
              complete(c.completion());
              metrics.setInFlight(inFlight.size());
              return this;
            })
        .onMessage(
            CompletedBatch.class,
            b -> {
              for (Completion c : b.batch().completions()) {
                complete(c);
              }
              metrics.setInFlight(inFlight.size());
              return this;
            })
        .onMessage(SubmitBatch.class, this::onSubmitBatch)
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessage(ListingChanged.class, this::onListing)
        .onMessage(NodeGone.class, this::onNodeGone)
        .onMessage(
            NodeReachable.class,
            r -> {
              unreachable.remove(r.node());
              return this;
            })
        .onMessage(
            NodeRemoved.class,
            r -> {
              unreachable.remove(r.node());
              announcedDrains.values().removeIf(r.node()::equals);
              return this;
            })
        .onMessage(DrainAnnounced.class, this::onDrainAnnounced)
        .onMessage(GetSlots.class, this::onGetSlots)
        .onMessage(GetWaiting.class, this::onGetWaiting)
        .build();
  }

  private Behavior<Command> onSubmit(Submit submit) {
    Request r = submit.request();
    if (r.replyTo() == null) {
      getContext()
          .getLog()
          .warn("request {} without replyTo dropped: nobody could receive its completion", r.id());
      return this;
    }
    accept(r, r.replyTo(), null);
    metrics.setInFlight(inFlight.size());
    return this;
  }

  private Behavior<Command> onSubmitBatch(SubmitBatch submit) {
    ActorRef<CompletionBatch> client = submit.batch().replyTo();
    if (client == null) {
      getContext()
          .getLog()
          .warn("batch of {} requests without replyTo dropped", submit.batch().requests().size());
      return this;
    }
    for (Request r : submit.batch().requests()) {
      accept(r, null, client);
    }
    metrics.setInFlight(inFlight.size());
    return this;
  }

  private void accept(
      Request r, ActorRef<Completion> client, ActorRef<CompletionBatch> batchClient) {
    long id = nextId++;
    // no replyTo of its own: it travels in a RequestBatch, answered to the batch's replyTo
    Request forward =
        new Request(
            id,
            r.op(),
            r.fileId(),
            r.offset(),
            r.length(),
            r.background(),
            r.cpu(),
            r.submitNanos(),
            null,
            r.carriesData(),
            r.data());
    admit(new InFlight(r.id(), client, batchClient, forward, clock.nanoTime(), -1, -1));
  }

  /**
   * A new or re-routed request: background ones pass admission first (the gate), foreground ones go
   * at once.
   */
  private void admit(InFlight f) {
    if (f.forward().background()) {
      gate.submit(f);
    } else {
      route(f);
    }
  }

  /**
   * Picks a queue for {@code f} (new, or re-routed from a departed queue) and sends it or lets it
   * wait.
   */
  private void route(InFlight f) {
    int slot = pick(f);
    if (slot != QueueSelector.NONE) {
      view.addNrReqs(slot, 1);
      place(f, slot);
    }
  }

  /**
   * The selector's slot for {@code f}; NONE ends it at once with the kernel's error for its kind.
   */
  private int pick(InFlight f) {
    Request r = f.forward();
    int slot =
        selector.select(view, Math.floorMod(r.cpu(), view.cpuCount()), r.background(), random);
    if (slot == QueueSelector.NONE || slots.queue(slot) == null) {
      end(f, r.background() ? Status.ENOTCONN : Status.EINVAL);
      return QueueSelector.NONE;
    }
    return slot;
  }

  /**
   * {@code f} is the queue's in {@code slot} (already counted in nr_reqs): send it, or let it wait
   * its turn.
   */
  private void place(InFlight f, int slot) {
    f = f.toSlot(slot);
    inFlight.put(f.forward().id(), f);
    if (inFlightBySlot.get(slot).size() < queueWindow) {
      send(f);
    } else {
      waitingBySlot.get(slot).addLast(f.forward().id());
      updateGauge(slot);
    }
  }

  private void send(InFlight f) {
    int slot = f.slot();
    inFlightBySlot.get(slot).add(f.forward().id());
    updateGauge(slot);
    ArrayList<Request> out = outbox.get(slot);
    if (out.isEmpty()) {
      dirty.addLast(slot);
    }
    out.add(f.forward());
    if (!flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
  }

  private void reply(InFlight f, Completion c) {
    if (f.batchClient() == null) {
      f.client().tell(c);
      return;
    }
    ArrayList<Completion> out =
        clientOutbox.computeIfAbsent(f.batchClient(), k -> new ArrayList<>());
    out.add(c);
    if (out.size() == RequestBatch.MAX_SIZE) {
      CompletionBatch.split(out).forEach(f.batchClient()::tell);
      out.clear();
    } else if (!flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
  }

  private Behavior<Command> onFlush() {
    flushPending = false;
    for (var e : clientOutbox.entrySet()) {
      if (!e.getValue().isEmpty()) {
        CompletionBatch.split(e.getValue()).forEach(e.getKey()::tell);
        e.getValue().clear();
      }
    }
    // clients come and go: keep no list for one that has nothing pending
    clientOutbox.values().removeIf(ArrayList::isEmpty);
    Integer slot;
    while ((slot = dirty.pollFirst()) != null) {
      ArrayList<Request> out = outbox.get(slot);
      ActorRef<RequestBatch> queue = batchesTo(slots.queue(slot));
      RequestBatch.split(out, batchReplies).forEach(queue::tell);
      out.clear();
    }
    return this;
  }

  /**
   * The queue's registered {@code ActorRef<Request>} is its message adapters' shared ref, which
   * also adapts {@link RequestBatch} (see {@link DeviceQueue}): the same ref, typed for batches.
   */
  @SuppressWarnings("unchecked")
  private static ActorRef<RequestBatch> batchesTo(ActorRef<Request> queue) {
    return (ActorRef<RequestBatch>) (ActorRef<?>) queue;
  }

  /**
   * Ends a request that never reached a queue or whose queue left: the client gets one completion.
   */
  private void end(InFlight f, Status status) {
    long now = clock.nanoTime();
    reply(f, new Completion(f.clientId(), status, f.forward().submitNanos(), now, now, -1));
    metrics.completed(status, now - f.arrivalNanos());
  }

  private void updateGauge(int slot) {
    NodeMetrics.QueueGauge g = gauges[slot];
    if (g != null) {
      g.set(inFlightBySlot.get(slot).size(), waitingBySlot.get(slot).size());
    }
  }

  /**
   * The device's completion under the client's id. A data-carrying read must bring back exactly its
   * length of bytes: a device that answers OK without them (or with another length) ended it with
   * an I/O error, and bytes nobody asked for are not passed on.
   */
  private static Completion forClient(InFlight f, Completion c) {
    Request r = f.forward();
    boolean wantsData = r.carriesData() && r.op() == Op.READ;
    Status status = c.status();
    byte[] data = null;
    if (wantsData && status == Status.OK) {
      if (c.data() != null && c.data().length == r.length()) {
        data = c.data();
      } else {
        status = Status.EIO;
      }
    }
    return new Completion(
        f.clientId(),
        status,
        c.submitNanos(),
        c.dispatchNanos(),
        c.completeNanos(),
        c.queue(),
        data);
  }

  private void complete(Completion c) {
    InFlight f = inFlight.get(c.id());
    if (f == null) {
      InFlight drained = draining.get(c.id());
      if (drained != null && drained.queueIndex() >= 0 && drained.queueIndex() != c.queue()) {
        dropWrongQueue(c, drained.queueIndex());
        return;
      }
      drained = draining.remove(c.id());
      if (drained != null) { // sent to a queue whose node is leaving in order: it finished it
        reply(drained, forClient(drained, c));
        metrics.completed(c.status(), clock.nanoTime() - drained.arrivalNanos());
      }
      return; // otherwise it already ended with ENOTCONN when its queue's node was lost
    }
    if (!inFlightBySlot.get(f.slot()).contains(c.id())) {
      return;
    }
    // Ids are only a counter: accept the completion only from the queue the request was sent to. A
    // slot's
    // queue index is taken from its first completion (the queue's own, as nobody else knows the ids
    // yet at the
    // start) and held until the queue leaves the slot.
    int expected = queueIndexOf[f.slot()];
    if (expected < 0) {
      queueIndexOf[f.slot()] = c.queue();
    } else if (expected != c.queue()) {
      dropWrongQueue(c, expected);
      return;
    }
    inFlightBySlot.get(f.slot()).remove(c.id());
    inFlight.remove(c.id());
    int slot = f.slot();
    view.addNrReqs(slot, -1);
    reply(f, forClient(f, c));
    metrics.completed(c.status(), clock.nanoTime() - f.arrivalNanos());
    Long next = waitingBySlot.get(slot).pollFirst();
    if (next != null) {
      send(inFlight.get(next));
    } else {
      updateGauge(slot);
    }
    if (f.forward().background()) {
      gate.ended(slot); // fuse_request_end: admits the next waiting ones, unblocks submitters
    }
  }

  private void dropWrongQueue(Completion c, int expected) {
    metrics.dropped(DROPPED_WRONG_QUEUE);
    getContext()
        .getLog()
        .warn(
            "completion {} from queue {} dropped: request was sent to queue {}",
            c.id(),
            c.queue(),
            expected);
  }

  private Behavior<Command> onListing(ListingChanged changed) {
    // reachable instances only: an unreachable node's queues leave the masks at once
    // (architecture.md §5a)
    List<ActorRef<Request>> before = new ArrayList<>();
    for (int slot = 0; slot < slots.capacity(); slot++) {
      before.add(slots.queue(slot));
    }
    QueueSlots.Change change =
        slots.update(changed.listing().getServiceInstances(DeviceQueue.QUEUES));
    List<InFlight> reroute = new ArrayList<>();
    List<Integer> givenBack = new ArrayList<>();
    for (int slot : change.removed()) {
      view.unregister(slot);
      UniqueAddress node = announcedDrains.remove(before.get(slot));
      boolean leavingInOrder = leavingInOrder(node);
      // background requests still waiting for this queue's admission: routed again, admitted anew
      reroute.addAll(gate.withdraw(slot));
      // and the admitted ones it held (sent, unsent or waiting for its window) give their admission
      // back below
      int admitted = 0;
      Set<Long> lost = inFlightBySlot.get(slot);
      // routed but never sent (the Flush had not come yet): as good as waiting, route them again
      for (Request unsent : outbox.get(slot)) {
        lost.remove(unsent.id());
        reroute.add(inFlight.remove(unsent.id()));
        admitted += unsent.background() ? 1 : 0;
      }
      outbox.get(slot).clear();
      dirty.remove(slot);
      for (long id : lost) {
        admitted += inFlight.get(id).forward().background() ? 1 : 0;
        if (leavingInOrder) {
          draining.add(node, id, inFlight.remove(id).expecting(queueIndexOf[slot]));
        } else {
          end(inFlight.remove(id), Status.ENOTCONN);
        }
      }
      if (leavingInOrder && !lost.isEmpty() && !timers.isTimerActive(new DrainTimer(node))) {
        timers.startSingleTimer(
            new DrainTimer(node),
            new NodeGone(node, "did not finish within " + DRAIN_TIMEOUT.toSeconds() + " s", false),
            DRAIN_TIMEOUT);
      }
      ArrayDeque<Long> waiting = waitingBySlot.get(slot);
      for (long id : waiting) {
        InFlight f = inFlight.remove(id);
        admitted += f.forward().background() ? 1 : 0;
        reroute.add(f);
      }
      if (!lost.isEmpty() || !waiting.isEmpty()) {
        getContext()
            .getLog()
            .info(
                "queue slot {} left: {} requests in flight {}, {} waiting re-routed",
                slot,
                lost.size(),
                leavingInOrder ? "left to finish (it announced a drain)" : "ended with ENOTCONN",
                waiting.size());
      }
      lost.clear();
      waiting.clear();
      view.setNrReqs(slot, 0);
      queueIndexOf[slot] = -1;
      for (int i = 0; i < admitted; i++) {
        givenBack.add(slot);
      }
      if (gauges[slot] != null) {
        metrics.removeQueue(gauges[slot].name());
        gauges[slot] = null;
      }
    }
    for (int slot : change.added()) {
      view.register(slot);
      queueIndexOf[slot] = -1;
      gauges[slot] = metrics.queue(slots.queue(slot).path().toString());
      updateGauge(slot);
    }
    for (int slot : givenBack) {
      gate.ended(slot);
    }
    // after the new queues are in: a device that left while another joined hands its waiting
    // requests over
    for (InFlight f : reroute) {
      admit(f);
    }
    metrics.setInFlight(inFlight.size());
    if (slots.waiting() > 0) {
      getContext()
          .getLog()
          .warn("{} queues found no routing slot (max {})", slots.waiting(), slots.capacity());
    }
    return this;
  }

  /**
   * The queue announced a drain ({@code node} non-null) and its node is reachable as far as this
   * router has seen: it will still answer. A local queue that stopped never will.
   */
  private boolean leavingInOrder(UniqueAddress node) {
    return clusterSystem
        && node != null
        && node.address().host().isDefined()
        && !unreachable.contains(node);
  }

  private Behavior<Command> onDrainAnnounced(DrainAnnounced d) {
    ActorRef<Request> queue = d.announcement().queue();
    if (queue != null) {
      announcedDrains.put(
          queue, new UniqueAddress(queue.path().address(), d.announcement().nodeUid()));
    }
    return this;
  }

  private Behavior<Command> onNodeGone(NodeGone gone) {
    if (gone.unreachable()) {
      unreachable.add(gone.node());
    }
    List<InFlight> lost = draining.removeNode(gone.node());
    timers.cancel(new DrainTimer(gone.node()));
    for (InFlight f : lost) {
      end(f, Status.ENOTCONN);
    }
    if (!lost.isEmpty()) {
      getContext()
          .getLog()
          .info(
              "node {} {}: {} requests it was finishing ended with ENOTCONN",
              gone.node(),
              gone.why(),
              lost.size());
    }
    return this;
  }

  private Behavior<Command> onGetWaiting(GetWaiting get) {
    List<Integer> waiting = new ArrayList<>();
    for (ArrayDeque<Long> w : waitingBySlot) {
      waiting.add(w.size());
    }
    get.replyTo().tell(List.copyOf(waiting));
    return this;
  }

  private Behavior<Command> onGetSlots(GetSlots get) {
    List<ActorRef<Request>> queues = new ArrayList<>();
    List<Integer> loads = new ArrayList<>();
    for (int slot = 0; slot < slots.capacity(); slot++) {
      queues.add(slots.queue(slot));
      loads.add(view.nrReqs(slot));
    }
    get.replyTo()
        .tell(new Slots(Collections.unmodifiableList(queues), List.copyOf(loads), inFlight.size()));
    return this;
  }
}
