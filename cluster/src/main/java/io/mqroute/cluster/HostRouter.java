package io.mqroute.cluster;

import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.QueueListed;
import io.mqroute.actors.machine.FlowProtocol.QueueReport;
import io.mqroute.actors.machine.FlowProtocol.QueueStats;
import io.mqroute.actors.machine.FlowProtocol.Route;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.actors.machine.PassThroughCore;
import io.mqroute.actors.machine.Router;
import io.mqroute.cluster.HostRouterProtocol.Command;
import io.mqroute.cluster.HostRouterProtocol.CoreWork;
import io.mqroute.cluster.HostRouterProtocol.Finished;
import io.mqroute.cluster.HostRouterProtocol.Flush;
import io.mqroute.cluster.HostRouterProtocol.GetSlots;
import io.mqroute.cluster.HostRouterProtocol.GetWaiting;
import io.mqroute.cluster.HostRouterProtocol.KeepAliveTick;
import io.mqroute.cluster.HostRouterProtocol.ListingChanged;
import io.mqroute.cluster.HostRouterProtocol.NodeGone;
import io.mqroute.cluster.HostRouterProtocol.NodeReachable;
import io.mqroute.cluster.HostRouterProtocol.NodeRemoved;
import io.mqroute.cluster.HostRouterProtocol.Slots;
import io.mqroute.cluster.HostRouterProtocol.Submit;
import io.mqroute.cluster.HostRouterProtocol.SubmitBatch;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.cluster.membership.ClusterEvents;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.UniqueAddress;

/**
 * A host node (role {@code host}): the model's {@link Router} — the same actor, selector, nr_reqs
 * accounting and background admission ({@code BackgroundGate}) the virtual-time machine runs — with
 * a thin transport shell around it. This shell is the clients' entry and the cluster's eyes; it
 * decides nothing about where a request goes.
 *
 * <ul>
 *   <li><b>Clients</b> find it through the Receptionist ({@link #ROUTERS}: wire messages {@link
 *       Request} and {@link RequestBatch} only). Each request gets a host-unique id (clients' ids
 *       may collide), goes to the router as {@link Route}, and its completion comes back to a child
 *       under an unguessable name (all message adapters of an actor share one ref: were it the
 *       client entry, any client could complete other clients' requests), relabelled with the
 *       client's id; completions for batch clients leave in {@link CompletionBatch}es at the next
 *       {@code Flush}. Exactly one completion per accepted request.
 *   <li><b>Queues</b>: one {@link RemoteQueue} per routing slot is the router's queue actor; it
 *       holds the window, the wire batches, the device's replies and the drain of a node leaving in
 *       order. The Receptionist's listing of {@link DeviceQueue#QUEUES} gives each queue a slot in
 *       a stable order ({@link QueueSlots}): a queue that appears is bound to its slot and {@link
 *       QueueListed listed} (by the slot); one that leaves (node lost, removed, unreachable, or
 *       draining) is unbound and unlisted, which is the router's queue-teardown path — out of the
 *       masks, its waiting requests routed again ({@code Evacuate}/{@code Reroute}, as a
 *       hotplug-aware queue's overflow), the ones on the device ended with ECONNABORTED (fate
 *       unknown) unless its node announced a drain and is still reachable. A slot whose queue has
 *       requests outstanding and answers none for {@code suspect-after} takes the same path at once
 *       and comes back when the queue answers (see {@link RemoteQueue}: suspicion and the fence).
 *       With no queue at all, a background request ends with ENOTCONN and a foreground one with
 *       EINVAL, as the kernel answers a NULL queue: ENOTCONN always means "not done".
 *   <li><b>Membership</b>: unreachable, reachable and removed members (this host's own view, kept
 *       from the events, not from {@code Cluster.state()}, which is updated asynchronously) go to
 *       the slots, which end a lost node's drain.
 * </ul>
 *
 * <p>The router's cores have zero CPU costs, as a {@link PassThroughCore}: in real time the real
 * CPU does the work, so a completion is delivered as soon as the router has accounted for it. The
 * core is this actor itself (one hop from the router instead of three).
 */
public final class HostRouter extends AbstractBehavior<HostRouterProtocol.Command> {
  /**
   * The Receptionist key of every host router's client endpoint (requests in, completions to
   * replyTo).
   */
  public static final ServiceKey<Request> ROUTERS =
      ServiceKey.create(Request.class, "mqroute-router");

  /** Longer than a device's drain (the service-requests-done phase, 15 s in mqroute-node.conf). */
  static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(20);

  /**
   * Completions refused: not from the queue the request was sent to (Completion.queue), see {@link
   * RemoteQueue}.
   */
  static final String DROPPED_WRONG_QUEUE = "completion-wrong-queue";

  /** A request or batch that names no reply address: nobody could receive its completion. */
  static final String DROPPED_NO_REPLY_TO = "request-without-reply-to";

  /**
   * How often a batch client that has a request held here for longer than this gets a {@link
   * HostAlive}: its host timeout measures this host, not a silent device.
   */
  static final Duration KEEP_ALIVE = Duration.ofMillis(100);

  /** A second end of one request (an invariant broken); never sent to the client. */
  static final String EVENT_DUPLICATE_END = "duplicate-end";

  /**
   * A client's request on this host: the completion goes to {@code client}, or into {@code
   * batchClient}'s next batch when the client sent a batch.
   */
  private record InFlight(
      long clientId,
      ActorRef<Completion> client,
      ActorRef<CompletionBatch> batchClient,
      long arrivalNanos) {}

  /** Wire messages to other nodes: over the node link when there is one (NodeLink). */
  private final NodeLink.Tell wire;

  private final ActorRef<RouterCommand> router;
  private final List<ActorRef<Object>> remotes;
  private final QueueSlots<ActorRef<Request>> slots;
  private final int cpus;
  private final HashMap<Long, InFlight> inFlight = new HashMap<>();
  private final ActorRef<Completion> routerReplies;
  // completions for batch clients, sent at the next Flush
  private final CompletionOutbox clientOutbox;
  // a KeepAliveTick is scheduled (at most one at a time)
  private boolean keepAliveArmed;
  private final NanoClock clock = NanoClock.SYSTEM;
  private final NodeMetrics metrics;
  // nodes this host saw become unreachable and not yet reachable again
  private final Set<UniqueAddress> unreachable = new HashSet<>();
  private long nextId;

  /**
   * The host router. Its ref also takes {@link CoreProtocol.Command}s: it is its router's core (a
   * zero-cost {@link PassThroughCore} would only pass the reaps on), so a completion comes from the
   * router straight to it. Exec is no wire message: no peer can send one.
   */
  @SuppressWarnings("unchecked")
  public static Behavior<Command> create(HostRouterSettings settings) {
    return (Behavior<Command>)
        (Behavior<?>)
            Behaviors.transformMessages(
                Object.class,
                Behaviors.<Command>setup(ctx -> new HostRouter(ctx, settings)),
                pf ->
                    pf.match(Command.class, c -> c)
                        .match(CoreProtocol.Command.class, CoreWork::new));
  }

  private HostRouter(ActorContext<Command> ctx, HostRouterSettings s) {
    super(ctx);
    this.wire = NodeLink.of(ctx.getSystem());
    this.clientOutbox =
        new CompletionOutbox(
            wire, () -> ctx.getSelf().tell(Flush.INSTANCE), RequestTrace.HOST_REPLY_OUT);
    int n = s.maxQueues();
    this.cpus = n;
    this.metrics = NodeMetrics.get(ctx.getSystem());
    this.slots = new QueueSlots<>(n, ref -> ref.path().toString());
    // one CPU per slot: the view needs a topology, and the cluster has no host CPUs to model (yet)
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, n)).queues(n).registered().build();
    // this actor itself (see create): Exec is handled as PassThroughCore would, in onCoreWork
    @SuppressWarnings("unchecked")
    ActorRef<CoreProtocol.Command> core =
        (ActorRef<CoreProtocol.Command>) (ActorRef<?>) ctx.getSelf();
    List<ActorRef<QueueCommand>> queues = new ArrayList<>(n);
    this.router =
        ctx.spawn(
            Router.create(
                Router.Settings.ofNode(Selectors.create(s.selector()), view, s.newAdmission()),
                SeededRandom.stream(s.seed(), "host-router"),
                queues,
                Collections.nCopies(n, core),
                null),
            "router");
    // filled before any request can reach the router (the Route messages come after this)
    this.remotes = new ArrayList<>(n);
    // how many slots are listed: the last one is never suspected (there would be no queue left)
    AtomicInteger listedSlots = new AtomicInteger();
    for (int q = 0; q < n; q++) {
      ActorRef<Object> remote =
          ctx.spawn(
              RemoteQueue.create(q, router, s.queueWindow(), s.suspectAfter(), listedSlots),
              "slot-" + q);
      remotes.add(remote);
      queues.add(remote.narrow());
    }
    ActorRef<Command> me = ctx.getSelf();
    this.routerReplies = ReplyChild.spawn(ctx, "router-replies", Completion.class, Finished::new);
    // the listing and the membership events (rare) come through a child: this actor registers
    // the clients' entry as a service
    ClusterEvents.subscribe(
        ctx,
        DeviceQueue.QUEUES,
        List.of(
            ClusterEvent.MemberRemoved.class,
            ClusterEvent.UnreachableMember.class,
            ClusterEvent.ReachableMember.class),
        e -> {
          if (e instanceof Receptionist.Listing l) {
            me.tell(new ListingChanged(l));
          } else if (e instanceof ClusterEvent.MemberRemoved m) {
            me.tell(new NodeRemoved(m.member().uniqueAddress()));
            me.tell(new NodeGone(m.member().uniqueAddress(), "was removed", false));
          } else if (e instanceof ClusterEvent.UnreachableMember m) {
            me.tell(new NodeGone(m.member().uniqueAddress(), "became unreachable", true));
          } else if (e instanceof ClusterEvent.ReachableMember m) {
            me.tell(new NodeReachable(m.member().uniqueAddress()));
          }
        });
    ActorRef<Request> entry = ctx.messageAdapter(Request.class, Submit::new);
    ctx.messageAdapter(
        RequestBatch.class, SubmitBatch::new); // the same ref: clients may send batches to it
    ctx.getSystem().receptionist().tell(Receptionist.register(ROUTERS, entry));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submit.class, this::onSubmit)
        .onMessage(SubmitBatch.class, this::onSubmitBatch)
        .onMessage(Finished.class, m -> finished(m.completion()))
        .onMessage(CoreWork.class, this::onCoreWork)
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessageEquals(KeepAliveTick.INSTANCE, this::onKeepAlive)
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
              remotes.forEach(q -> q.tell(new RemoteQueueProtocol.NodeRemoved(r.node())));
              return this;
            })
        .onMessage(GetSlots.class, this::onGetSlots)
        .onMessage(GetWaiting.class, this::onGetWaiting)
        .build();
  }

  private Behavior<Command> onSubmit(Submit submit) {
    Request r = submit.request();
    if (r.replyTo() == null) {
      return noReplyTo(
          "request {} without replyTo dropped: nobody could receive its completion", r.id());
    }
    router.tell(new Route(accept(r, r.replyTo(), null)));
    metrics.setInFlight(inFlight.size());
    return this;
  }

  private Behavior<Command> noReplyTo(String format, Object arg) {
    metrics.dropped(DROPPED_NO_REPLY_TO);
    PeerLog.warn(getContext().getLog(), DROPPED_NO_REPLY_TO, format, arg);
    return this;
  }

  private Behavior<Command> onSubmitBatch(SubmitBatch submit) {
    ActorRef<CompletionBatch> client = submit.batch().replyTo();
    if (client == null) {
      return noReplyTo(
          "batch of {} requests without replyTo dropped", submit.batch().requests().size());
    }
    List<Request> routed = new ArrayList<>(submit.batch().requests().size());
    for (Request r : submit.batch().requests()) {
      routed.add(accept(r, null, client));
    }
    // one message for the batch: the node's cost per request is mostly per message
    router.tell(FlowProtocol.RouteAll.of(routed));
    metrics.setInFlight(inFlight.size());
    return this;
  }

  /** The request under a host-unique id, for the router (the caller sends it). */
  private Request accept(
      Request r, ActorRef<Completion> client, ActorRef<CompletionBatch> batchClient) {
    long id = nextId++;
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.HOST_ACCEPT, r.submitNanos());
    }
    inFlight.put(id, new InFlight(r.id(), client, batchClient, clock.nanoTime()));
    if (batchClient != null && !keepAliveArmed) {
      keepAliveArmed = true;
      getContext().scheduleOnce(KEEP_ALIVE, getContext().getSelf(), KeepAliveTick.INSTANCE);
    }
    // the client's CPU as one of the view's (the cluster has no host CPUs to model)
    return r.relabelled(id, Math.floorMod(r.cpu(), cpus), routerReplies);
  }

  /**
   * The router's core work, as {@link PassThroughCore} does it (zero cost, delivered at once): a
   * reap for this host's reply child is this actor's own completion, handled here; anything else is
   * passed on.
   */
  private Behavior<Command> onCoreWork(CoreWork w) {
    if (w.work() instanceof CoreProtocol.Exec<?> e) {
      coreWork(e);
    } else if (w.work() instanceof CoreProtocol.ExecAll all) {
      all.work().forEach(this::coreWork);
    }
    return this; // hotplug and reports mean nothing to a pass-through core
  }

  private void coreWork(CoreProtocol.Exec<?> e) {
    if (e.to() == routerReplies && e.message() instanceof Completion c) {
      finished(c);
    } else {
      PassThroughCore.deliver(e);
    }
  }

  private Behavior<Command> finished(Completion c) {
    InFlight f = inFlight.remove(c.id());
    if (f == null) {
      // cannot happen: the router ends each request once; counted, so that a test can prove it
      metrics.event(EVENT_DUPLICATE_END);
      return this;
    }
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.HOST_FINISHED, c.submitNanos());
    }
    reply(
        f,
        new Completion(
            f.clientId(),
            c.status(),
            c.submitNanos(),
            c.dispatchNanos(),
            c.completeNanos(),
            c.queue(),
            c.data()));
    metrics.completed(c.status(), clock.nanoTime() - f.arrivalNanos());
    metrics.setInFlight(inFlight.size());
    return this;
  }

  private void reply(InFlight f, Completion c) {
    if (f.batchClient() == null) {
      wire.tell(f.client(), c);
      return;
    }
    clientOutbox.add(f.batchClient(), c);
  }

  /**
   * Off the request path: every KEEP_ALIVE, the batch clients with a request held here for longer
   * than that (waiting on a slow or silent device) hear that this host lives.
   */
  @SuppressWarnings("unchecked")
  private Behavior<Command> onKeepAlive() {
    long old = clock.nanoTime() - KEEP_ALIVE.toNanos();
    HashMap<ActorRef<CompletionBatch>, int[]> held = new HashMap<>();
    boolean batchClients = false;
    for (InFlight f : inFlight.values()) {
      if (f.batchClient() != null) {
        batchClients = true;
        if (f.arrivalNanos() <= old) {
          held.computeIfAbsent(f.batchClient(), k -> new int[1])[0]++;
        }
      }
    }
    // the client's ref is its message adapter: it adapts HostAlive too (RouterClient)
    held.forEach((c, n) -> wire.tell((ActorRef<HostAlive>) (ActorRef<?>) c, new HostAlive(n[0])));
    keepAliveArmed = batchClients;
    if (keepAliveArmed) {
      getContext().scheduleOnce(KEEP_ALIVE, getContext().getSelf(), KeepAliveTick.INSTANCE);
    }
    return this;
  }

  private Behavior<Command> onFlush() {
    clientOutbox.flush();
    return this;
  }

  private Behavior<Command> onListing(ListingChanged changed) {
    // reachable instances only: an unreachable node's queues leave the masks at once
    // (architecture.md §5a)
    QueueSlots.Change change =
        slots.update(changed.listing().getServiceInstances(DeviceQueue.QUEUES));
    // the slot tells the router itself (QueueListed), as it does when it suspects its queue: one
    // sender per slot keeps the router's view in order
    for (int slot : change.removed()) {
      remotes.get(slot).tell(new RemoteQueueProtocol.Unbind(Set.copyOf(unreachable)));
    }
    for (int slot : change.added()) {
      remotes.get(slot).tell(new RemoteQueueProtocol.Bind(slots.queue(slot)));
    }
    if (slots.waiting() > 0) {
      getContext()
          .getLog()
          .warn("{} queues found no routing slot (max {})", slots.waiting(), slots.capacity());
    }
    return this;
  }

  private Behavior<Command> onNodeGone(NodeGone gone) {
    if (gone.unreachable()) {
      unreachable.add(gone.node());
    }
    remotes.forEach(q -> q.tell(new RemoteQueueProtocol.NodeGone(gone.node(), gone.why())));
    return this;
  }

  private Behavior<Command> onGetWaiting(GetWaiting get) {
    int n = remotes.size();
    ActorRef<QueueStats> collector =
        getContext()
            .spawnAnonymous(
                Behaviors.setup(
                    ctx -> {
                      Integer[] waiting = new Integer[n];
                      int[] left = {n};
                      return Behaviors.receive(QueueStats.class)
                          .onAnyMessage(
                              st -> {
                                waiting[st.queue()] = st.queued();
                                if (--left[0] == 0) {
                                  get.replyTo().tell(List.of(waiting));
                                  return Behaviors.stopped();
                                }
                                return Behaviors.same();
                              })
                          .build();
                    }));
    remotes.forEach(q -> q.tell(new QueueReport(collector)));
    return this;
  }

  private Behavior<Command> onGetSlots(GetSlots get) {
    List<ActorRef<Request>> queues = new ArrayList<>();
    for (int slot = 0; slot < slots.capacity(); slot++) {
      queues.add(slots.queue(slot));
    }
    int inFlightNow = inFlight.size();
    ActorRef<Slots> replyTo = get.replyTo();
    // after every Route sent so far (same sender, same receiver): the loads include them
    AskPattern.<RouterCommand, List<Integer>>ask(
            router,
            FlowProtocol.QueueLoads::new,
            Duration.ofSeconds(5),
            getContext().getSystem().scheduler())
        .thenAccept(
            loads ->
                replyTo.tell(new Slots(Collections.unmodifiableList(queues), loads, inFlightNow)));
    return this;
  }
}
