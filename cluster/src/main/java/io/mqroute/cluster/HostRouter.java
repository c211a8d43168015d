package io.mqroute.cluster;

import io.mqroute.actors.runtime.NanoClock;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;

/**
 * The request router of a host node (role {@code host}): follows the Receptionist listing of
 * {@link DeviceQueue#QUEUES}, picks a queue for each client {@link Request} with a {@link QueueSelector}
 * ({@code fuse_uring_get_queue} over a cluster) and relays the device's {@link Completion} back.
 *
 * <p>Flow: a client sends {@link Submit}; the router forwards the request to the chosen queue under a
 * router-unique id with {@code replyTo} = its own completion adapter, remembering the client's id, ref and the
 * queue's slot; the device's completion comes back, is matched by that id, relabelled with the client's id and
 * forwarded. Exactly one completion per request: when a queue leaves the listing (its node left, was removed
 * or became unreachable), every request in flight on it ends with {@link Status#ENOTCONN} at once and its slot
 * is unregistered; a completion that arrives for such a request later is dropped. With no queue at all, a
 * background request ends with ENOTCONN and a foreground one with EINVAL, as the kernel answers a NULL queue.
 *
 * <p>Queues get slots (routing-view queue indices) in a stable order, see {@link QueueSlots}.
 */
public final class HostRouter extends AbstractBehavior<HostRouter.Command> {
  /** What a host router handles. */
  public interface Command {}

  /** A client's request; its {@code replyTo} receives exactly one completion. */
  public record Submit(Request request) implements Command {}

  /** Asks for the queue refs by slot (null for a free slot); for tests and management. */
  public record GetSlots(ActorRef<Slots> replyTo) implements Command {}

  /** The answer to {@link GetSlots}: {@code queues.get(slot)} and {@code nrReqs.get(slot)} for every slot. */
  public record Slots(List<ActorRef<Request>> queues, List<Integer> nrReqs, int inFlight) {}

  private record ListingChanged(Receptionist.Listing listing) implements Command {}

  private record Completed(Completion completion) implements Command {}

  /**
   * @param selector  a {@link Selectors} name ({@code round-robin}, {@code p2c}, ...)
   * @param maxQueues routing slots, i.e. queues the router can use at once
   * @param seed      seed of the routing random stream
   */
  public record Settings(String selector, int maxQueues, long seed) {
    public Settings {
      Objects.requireNonNull(selector, "selector");
      if (maxQueues < 1) {
        throw new IllegalArgumentException("maxQueues must be >= 1, was " + maxQueues);
      }
    }

    /** Round robin over up to 64 queues. */
    public static Settings defaults() {
      return new Settings("round-robin", 64, 1);
    }

    /** From a config block with {@code selector}, {@code max-queues} and {@code seed}. */
    public static Settings fromConfig(com.typesafe.config.Config c) {
      return new Settings(c.getString("selector"), c.getInt("max-queues"), c.getLong("seed"));
    }
  }

  private record InFlight(long clientId, ActorRef<Completion> client, long submitNanos, int slot) {}

  private final QueueSelector selector;
  private final SeededRandom random;
  private final MutableRoutingView view;
  private final QueueSlots<ActorRef<Request>> slots;
  private final List<Set<Long>> inFlightBySlot;
  private final LinkedHashMap<Long, InFlight> inFlight = new LinkedHashMap<>();
  private final ActorRef<Completion> completions;
  private final NanoClock clock = NanoClock.SYSTEM;
  private long nextId;

  public static Behavior<Command> create(Settings settings) {
    return Behaviors.setup(ctx -> new HostRouter(ctx, settings));
  }

  private HostRouter(ActorContext<Command> ctx, Settings s) {
    super(ctx);
    this.selector = Selectors.create(s.selector());
    this.random = SeededRandom.stream(s.seed(), "host-router");
    // one CPU per slot: the view needs a topology, and the cluster has no host CPUs to model (yet)
    this.view = MutableRoutingView.newBuilder(CpuTopology.uniform(1, s.maxQueues()))
        .queues(s.maxQueues()).registered().build();
    this.slots = new QueueSlots<>(s.maxQueues(), ref -> ref.path().toString());
    this.inFlightBySlot = new ArrayList<>(s.maxQueues());
    for (int i = 0; i < s.maxQueues(); i++) {
      inFlightBySlot.add(new LinkedHashSet<>());
    }
    this.completions = ctx.messageAdapter(Completion.class, Completed::new);
    ActorRef<Receptionist.Listing> listings = ctx.messageAdapter(Receptionist.Listing.class, ListingChanged::new);
    ctx.getSystem().receptionist().tell(Receptionist.subscribe(DeviceQueue.QUEUES, listings));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submit.class, this::onSubmit)
        .onMessage(Completed.class, this::onCompleted)
        .onMessage(ListingChanged.class, this::onListing)
        .onMessage(GetSlots.class, this::onGetSlots)
        .build();
  }

  private Behavior<Command> onSubmit(Submit submit) {
    Request r = submit.request();
    if (r.replyTo() == null) {
      getContext().getLog().warn("request {} without replyTo dropped: nobody could receive its completion", r.id());
      return this;
    }
    int slot = selector.select(view, Math.floorMod(r.cpu(), view.cpuCount()), r.background(), random);
    if (slot == QueueSelector.NONE || slots.queue(slot) == null) {
      long now = clock.nanoTime();
      Status status = r.background() ? Status.ENOTCONN : Status.EINVAL;
      r.replyTo().tell(new Completion(r.id(), status, r.submitNanos(), now, now, -1));
      return this;
    }
    long id = nextId++;
    inFlight.put(id, new InFlight(r.id(), r.replyTo(), r.submitNanos(), slot));
    inFlightBySlot.get(slot).add(id);
    view.addNrReqs(slot, 1);
    slots.queue(slot).tell(new Request(id, r.op(), r.fileId(), r.offset(), r.length(), r.background(), r.cpu(),
        r.submitNanos(), completions));
    return this;
  }

  private Behavior<Command> onCompleted(Completed done) {
    Completion c = done.completion();
    InFlight f = inFlight.remove(c.id());
    if (f == null) {
      return this; // already ended with ENOTCONN when its queue left
    }
    inFlightBySlot.get(f.slot()).remove(c.id());
    view.addNrReqs(f.slot(), -1);
    f.client().tell(new Completion(f.clientId(), c.status(), c.submitNanos(), c.dispatchNanos(), c.completeNanos(),
        c.queue()));
    return this;
  }

  private Behavior<Command> onListing(ListingChanged changed) {
    // reachable instances only: an unreachable node's queues leave the masks at once (DESIGN §7)
    QueueSlots.Change change = slots.update(changed.listing().getServiceInstances(DeviceQueue.QUEUES));
    for (int slot : change.removed()) {
      view.unregister(slot);
      long now = clock.nanoTime();
      Set<Long> lost = inFlightBySlot.get(slot);
      for (long id : lost) {
        InFlight f = inFlight.remove(id);
        f.client().tell(new Completion(f.clientId(), Status.ENOTCONN, f.submitNanos(), now, now, -1));
      }
      if (!lost.isEmpty()) {
        getContext().getLog().info("queue slot {} left: {} requests in flight ended with ENOTCONN", slot,
            lost.size());
      }
      lost.clear();
      view.setNrReqs(slot, 0);
    }
    for (int slot : change.added()) {
      view.register(slot);
    }
    if (slots.waiting() > 0) {
      getContext().getLog().warn("{} queues found no routing slot (max {})", slots.waiting(), slots.capacity());
    }
    return this;
  }

  private Behavior<Command> onGetSlots(GetSlots get) {
    List<ActorRef<Request>> queues = new ArrayList<>();
    List<Integer> loads = new ArrayList<>();
    for (int slot = 0; slot < slots.capacity(); slot++) {
      queues.add(slots.queue(slot));
      loads.add(view.nrReqs(slot));
    }
    get.replyTo().tell(new Slots(java.util.Collections.unmodifiableList(queues), List.copyOf(loads),
        inFlight.size()));
    return this;
  }
}
