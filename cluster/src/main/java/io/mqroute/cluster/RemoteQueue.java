package io.mqroute.cluster;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.FlowProtocol.Ended;
import io.mqroute.actors.machine.FlowProtocol.Enqueue;
import io.mqroute.actors.machine.FlowProtocol.Evacuate;
import io.mqroute.actors.machine.FlowProtocol.QueueListed;
import io.mqroute.actors.machine.FlowProtocol.QueueReport;
import io.mqroute.actors.machine.FlowProtocol.QueueStats;
import io.mqroute.actors.machine.FlowProtocol.Reroute;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.actors.machine.Queueing;
import io.mqroute.cluster.RemoteQueueProtocol.Bind;
import io.mqroute.cluster.RemoteQueueProtocol.Command;
import io.mqroute.cluster.RemoteQueueProtocol.DeviceDraining;
import io.mqroute.cluster.RemoteQueueProtocol.EndDue;
import io.mqroute.cluster.RemoteQueueProtocol.Flush;
import io.mqroute.cluster.RemoteQueueProtocol.FromDevice;
import io.mqroute.cluster.RemoteQueueProtocol.FromRouter;
import io.mqroute.cluster.RemoteQueueProtocol.NodeGone;
import io.mqroute.cluster.RemoteQueueProtocol.NodeRemoved;
import io.mqroute.cluster.RemoteQueueProtocol.Routed;
import io.mqroute.cluster.RemoteQueueProtocol.SuspectCheck;
import io.mqroute.cluster.RemoteQueueProtocol.SuspectConfirm;
import io.mqroute.cluster.RemoteQueueProtocol.Unbind;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.cluster.UniqueAddress;

/**
 * One routing slot of a host: to the model's {@link io.mqroute.actors.machine.Router} it is a queue
 * like any other (it takes {@link Enqueue}, answers {@link Ended}, hands its overflow back on
 * {@link Evacuate}); behind it is the transport to a device node's queue, the {@link DeviceQueue}
 * the Receptionist listed in this slot ({@link Bind}), or none.
 *
 * <p>Listing: this actor alone tells the router whether its slot is in the masks ({@link
 * QueueListed}): listed when a queue is bound and not suspected, unlisted when it is unbound or
 * suspected. One sender keeps the router's view in the order the slot's state changed.
 *
 * <p>Window: at most {@code window} requests are on the device at once (its ring); more wait here,
 * in arrival order, and go as the device completes earlier ones. Keeping them here is what lets a
 * lost device's waiting requests be routed again: when the queue leaves ({@link Unbind}) or is
 * suspected, the waiting ones go back to the router on its {@link Evacuate} (as a hotplug-aware
 * queue's overflow does when its CPU goes offline), and the ones sent end with {@link
 * Status#ECONNABORTED}: their fate is unknown (the kernel's code for requests a torn-down
 * connection had taken), never {@link Status#ENOTCONN}, which says "not done".
 *
 * <p>Suspicion: a queue that has requests outstanding and answers none for {@code suspectAfter} (S)
 * is suspected at once, long before the failure detector decides about its node (seconds): out of
 * the masks and its waiting requests routed again. That is cheap when it is wrong: the queue is
 * reinstated (listed again) as soon as it answers. The last slot listed is never suspected: with no
 * queue at all the router would answer every request ENOTCONN at once, which helps nobody (on an
 * overloaded machine every queue may look silent). What it was sent is given up on later, at twice
 * the bound after each request left (2S, plus the fence's allowance below), and ended as above. An
 * answer before then ends its request with its outcome and proves the queue alive: it is reinstated
 * and takes back what it had been sent and not been ended yet (a starved device is slow, not gone).
 * A host that did not run on time itself (its timer fired more than S/4 late: a GC pause, a starved
 * CPU) looks again a little later rather than judge its queues by answers it has not read yet, and
 * a verdict is taken again behind whatever reached the mailbox meanwhile.
 *
 * <p>Fence: every batch carries its send time and 2S as the oldest its requests may be when the
 * device starts them ({@link RequestBatch}); a device refuses an older one unstarted with ENOTCONN
 * (then the request is routed again, or, if the host had ended it, nothing happens). The device
 * never starts a request after host time {@code sent + 2S + d}, with {@code d} the shortest one-way
 * delay it has seen, which is at most this binding's shortest round trip {@code R}. So the host
 * ends a request it gave up on no earlier than {@code sent + 2S + R + }{@value
 * #FENCE_MARGIN_MS}{@code ms} (the margin for the clocks' rates): from then on the device will
 * never start it. Before the binding's first round trip {@code R} is unknown and the host claims
 * nothing (it still waits 2S; the status says unknown anyway). A device cannot undo what it had
 * started before it stopped: that is why the status is ECONNABORTED and not ENOTCONN.
 *
 * <p>Graceful leave: a queue that announced {@link QueueDraining} and whose node this host still
 * sees as reachable will finish what it was sent: those requests wait for their completions in
 * {@link Draining}, and end with ECONNABORTED only if the node becomes unreachable or is removed
 * first ({@link NodeGone}), or after {@link HostRouter#DRAIN_TIMEOUT}. A queue that leaves without
 * announcing stopped (crash, supervision) while its node may well be up: nothing will answer.
 *
 * <p>Wire: requests go out in {@link RequestBatch}es, collected until a {@code Flush} this actor
 * sends itself when the first one is added (no timer: under load the batch gathers everything that
 * arrived while the mailbox was busy). The device answers to a child of this actor under an
 * unguessable name, never to the router; a completion is accepted only for a request this slot
 * sent, from the queue it was sent to (its {@link Completion#queue()} index, learned from the
 * queue's first completion: ids are only a counter), and a data-carrying read must bring back
 * exactly its length.
 */
final class RemoteQueue extends AbstractBehavior<RemoteQueueProtocol.Command> {

  private record DrainTimer(UniqueAddress node) {}

  /** A request the slot's previous queue is finishing; its completion must carry {@code index}. */
  private record Drained(Request request, int index) {}

  /**
   * On the device: the router's request (its replyTo is the router's), its copy for the wire, when
   * it left and the earliest the host may end it unanswered (0: at once, no fence claimed).
   */
  private static final class Sent {
    final Request request;
    final Request wire;
    long sentNanos;
    long notBefore;

    Sent(Request request, Request wire) {
      this.request = request;
      this.wire = wire;
    }
  }

  /**
   * A request given up on (its queue fell silent or left), to be ended at {@code notBefore}; until
   * then its completion is still taken, from queue {@code index} of binding {@code binding}.
   */
  private record Ending(Sent sent, int binding, int index) {
    Request request() {
      return sent.request;
    }

    long notBefore() {
      return sent.notBefore;
    }
  }

  /** A request ended as of unknown fate: where a late answer for it may come from. */
  private record Gone(int binding, int index) {}

  /** Added to the fence for the clocks' rate difference (same clock on one machine: NTP's ms). */
  static final long FENCE_MARGIN_MS = 10;

  /** Requests ended as unknown that are remembered for their late answers (the oldest go). */
  private static final int GONE_KEPT = 4096;

  /** Wire messages to other nodes: over the node link when there is one (NodeLink). */
  private final NodeLink.Tell link;

  private final int slot;
  private final ActorRef<RouterCommand> router;
  private final int window;
  private final long suspectNanos; // 0: off
  // slots of this host listed now (bound, not suspected), shared by all of them
  private final AtomicInteger listedSlots;
  private final long fenceNanos; // twice suspectNanos
  private long suspectDue; // when the SuspectCheck timer was to fire
  private long endDueAt; // when the EndDue timer was to fire
  private final boolean clusterSystem;
  private final NodeMetrics metrics;
  private final TimerScheduler<Object> timers;
  private final NanoClock clock = NanoClock.SYSTEM;
  // while a completion batch is handled: what it ended, for one EndedAll (null otherwise)
  private List<Ended> ends;
  private final ActorRef<CompletionBatch> replies;

  private ActorRef<Request> queue;
  private NodeMetrics.QueueGauge gauge;
  private int queueIndex = -1;
  private UniqueAddress announced;
  // every Bind starts a new binding: answers are matched to the binding they belong to
  private int binding;
  private boolean listed;
  private boolean suspected;
  private long lastAnswer;
  private long busySince; // when sent last went from empty to non-empty
  private long minRtt = Long.MAX_VALUE; // this binding's shortest round trip

  /** On the device, by id, in the order they were sent. */
  private final LinkedHashMap<Long, Sent> sent = new LinkedHashMap<>();

  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final ArrayList<Sent> outbox = new ArrayList<>();
  private boolean flushPending;
  private final Draining<UniqueAddress, Drained> draining = new Draining<>();
  private final LinkedHashMap<Long, Ending> ending = new LinkedHashMap<>();
  private final LinkedHashMap<Long, Gone> gone =
      new LinkedHashMap<>() {
        @Override
        protected boolean removeEldestEntry(java.util.Map.Entry<Long, Gone> eldest) {
          return size() > GONE_KEPT;
        }
      };

  private long accepted;
  private long completed;
  private int maxOccupancy;
  private long overflowWaits;
  private long rerouted;
  private long errors;

  /**
   * The slot's actor: its ref takes the router's {@link FlowProtocol.QueueCommand}s (it is one of
   * the router's queues) as well as the shell's {@link RemoteQueueProtocol.Command}s.
   *
   * @param suspectAfter see the class comment; null: never suspected, no fence
   * @param listedSlots how many of the host's slots are listed, shared by them: the last one is
   *     never suspected
   */
  static Behavior<Object> create(
      int slot,
      ActorRef<RouterCommand> router,
      int window,
      Duration suspectAfter,
      AtomicInteger listedSlots) {
    // timers outermost: their messages reach the transformation as the Commands they carry
    return Behaviors.withTimers(
        timers ->
            Behaviors.transformMessages(
                Object.class,
                Behaviors.<Command>setup(
                    ctx ->
                        new RemoteQueue(
                            ctx, timers, slot, router, window, suspectAfter, listedSlots)),
                pf ->
                    pf.match(Command.class, c -> c)
                        .match(Enqueue.class, e -> new Routed(e.request()))
                        .match(
                            FlowProtocol.EnqueueAll.class,
                            e -> new RemoteQueueProtocol.RoutedAll(e.requests()))
                        .match(FlowProtocol.QueueCommand.class, FromRouter::new)));
  }

  private RemoteQueue(
      ActorContext<Command> ctx,
      TimerScheduler<Object> timers,
      int slot,
      ActorRef<RouterCommand> router,
      int window,
      Duration suspectAfter,
      AtomicInteger listedSlots) {
    super(ctx);
    this.link = NodeLink.of(ctx.getSystem());
    this.listedSlots = listedSlots;
    this.slot = slot;
    this.router = router;
    this.window = window;
    this.suspectNanos = suspectAfter == null ? 0 : suspectAfter.toNanos();
    this.fenceNanos = 2 * suspectNanos;
    this.timers = timers;
    this.clusterSystem =
        ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster");
    this.metrics = NodeMetrics.get(ctx.getSystem());
    ActorRef<Object> deviceReplies =
        ReplyChild.spawn(
            ctx,
            "device-replies",
            Object.class,
            m -> m instanceof QueueDraining d ? new DeviceDraining(d) : new FromDevice(m));
    this.replies = deviceReplies.narrow();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Routed.class, r -> onEnqueue(r.request()))
        .onMessage(
            RemoteQueueProtocol.RoutedAll.class,
            all -> {
              for (Request r : all.requests()) {
                onEnqueue(r);
              }
              return this;
            })
        .onMessage(FromDevice.class, this::onDevice)
        .onMessage(FromRouter.class, this::onRouter)
        .onMessage(DeviceDraining.class, this::onDraining)
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessage(Bind.class, this::onBind)
        .onMessage(Unbind.class, this::onUnbind)
        .onMessage(NodeGone.class, this::onNodeGone)
        .onMessage(
            NodeRemoved.class,
            r -> {
              if (r.node().equals(announced)) {
                announced = null;
              }
              return this;
            })
        .onMessageEquals(SuspectCheck.INSTANCE, this::onSuspectCheck)
        .onMessageEquals(SuspectConfirm.INSTANCE, this::onSuspectConfirm)
        .onMessageEquals(EndDue.INSTANCE, this::onEndDue)
        .build();
  }

  private Behavior<Command> onRouter(FromRouter m) {
    if (m.command() instanceof Evacuate) {
      return onEvacuate();
    } else if (m.command() instanceof QueueReport r) {
      return onReport(r);
    }
    return this; // the model's faults, remounts and server moves mean nothing here
  }

  private Behavior<Command> onEnqueue(Request r) {
    accepted++;
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.HOST_SLOT, r.submitNanos());
    }
    if (!listed) {
      // routed before the router read this slot's QueueListed(false), which it reads before this
      // Reroute (both from here): it picks another queue
      rerouted++;
      router.tell(new Reroute(r, slot));
    } else if (sent.size() < window) {
      send(r);
    } else {
      overflowWaits++;
      waiting.addLast(r);
    }
    updateGauge();
    return this;
  }

  private void send(Request r) {
    if (sent.isEmpty()) {
      busySince = clock.nanoTime();
      if (suspectNanos > 0 && !timers.isTimerActive(SuspectCheck.INSTANCE)) {
        armSuspect(suspectNanos);
      }
    }
    // no replyTo of its own: it travels in a RequestBatch, answered to the batch's replyTo
    Sent s = new Sent(r, r.withReplyTo(null));
    sent.put(r.id(), s);
    maxOccupancy = Math.max(maxOccupancy, sent.size());
    outbox.add(s);
    if (!flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
  }

  private Behavior<Command> onFlush() {
    flushPending = false;
    if (queue != null && !outbox.isEmpty()) {
      long now = clock.nanoTime();
      // without a round trip yet the host waits as long, but it claims no fence (class comment)
      long notBefore =
          now
              + fenceNanos
              + (suspectNanos > 0 && minRtt != Long.MAX_VALUE
                  ? minRtt + FENCE_MARGIN_MS * 1_000_000
                  : 0);
      List<Request> wire = new ArrayList<>(outbox.size());
      for (Sent s : outbox) {
        if (RequestTrace.ON) {
          RequestTrace.mark(RequestTrace.HOST_OUT, s.request.submitNanos());
        }
        s.sentNanos = now;
        s.notBefore = notBefore;
        wire.add(s.wire);
      }
      ActorRef<RequestBatch> to = batchesTo(queue);
      RequestBatch.split(wire, replies, suspectNanos > 0 ? now : 0, fenceNanos)
          .forEach(b -> link.tell(to, b));
    }
    outbox.clear();
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

  private Behavior<Command> onDevice(FromDevice m) {
    List<Completion> completions =
        m.message() instanceof CompletionBatch b
            ? b.completions()
            : m.message() instanceof Completion c ? List.of(c) : List.of();
    if (completions.isEmpty()) {
      return this;
    }
    long now = clock.nanoTime();
    // a suspected queue was busy too: the silence its answer ends is the one that suspected it
    boolean busy = !sent.isEmpty() || suspected;
    long quietSince = Math.max(lastAnswer, busySince);
    boolean alive = false;
    ends = new ArrayList<>(completions.size());
    try {
      for (Completion c : completions) {
        alive |= complete(c, now);
      }
    } finally {
      sendEnds();
      ends = null;
    }
    answered(alive, busy, quietSince, now);
    return this;
  }

  private Behavior<Command> onDraining(DeviceDraining m) {
    QueueDraining d = m.draining();
    if (queue != null && queue.equals(d.queue())) {
      announced = new UniqueAddress(queue.path().address(), d.nodeUid());
    }
    return this;
  }

  /**
   * The bound queue answered (or not): the silence it ended, and a suspected queue that answers is
   * reinstated.
   */
  private void answered(boolean alive, boolean busy, long quietSince, long now) {
    if (!alive) {
      return;
    }
    if (busy) {
      metrics.silence(now - quietSince);
    }
    lastAnswer = now;
    if (suspected && queue != null) {
      reinstate();
    }
  }

  /**
   * One completion from a device; true when it is an answer of the queue bound now (proof that it
   * lives). ENOTCONN from a device: it refused the request unstarted (its fence), so it is not done
   * and may go elsewhere.
   */
  private boolean complete(Completion c, long now) {
    Sent s = sent.get(c.id());
    if (s != null) {
      if (queueIndex < 0) {
        queueIndex = c.queue();
      } else if (queueIndex != c.queue()) {
        dropWrongQueue(c, queueIndex);
        return false;
      }
      sent.remove(c.id());
      if (RequestTrace.ON) {
        RequestTrace.mark(RequestTrace.HOST_SLOT_DONE, c.submitNanos());
      }
      minRtt = Math.min(minRtt, now - s.sentNanos);
      endOrReroute(s.request, c);
      refill();
      updateGauge();
      return true;
    }
    Ending e = ending.get(c.id());
    if (e != null) {
      if (e.index() >= 0 && e.index() != c.queue()) {
        dropWrongQueue(c, e.index());
        return false;
      }
      ending.remove(c.id()); // its fence had not passed: it gets its real outcome
      endOrReroute(e.request(), c);
      return e.binding() == binding;
    }
    Drained d = draining.get(c.id());
    if (d != null) {
      if (d.index() >= 0 && d.index() != c.queue()) {
        dropWrongQueue(c, d.index());
      } else { // sent to a queue whose node is leaving in order: it finished it
        draining.remove(c.id());
        end(d.request(), forRouter(d.request(), c));
      }
      return false;
    }
    Gone g = gone.get(c.id());
    if (g != null && (g.index() < 0 || g.index() == c.queue())) {
      // ended as of unknown fate already: the device did it after all, or (ENOTCONN) refused it
      gone.remove(c.id());
      metrics.event(
          c.status() == Status.ENOTCONN ? EVENT_FENCED_AFTER_END : EVENT_COMPLETION_AFTER_END);
      return g.binding() == binding;
    }
    return false; // otherwise it ended long ago (or never was this slot's)
  }

  private void endOrReroute(Request r, Completion c) {
    if (c.status() == Status.ENOTCONN) {
      rerouted++;
      metrics.event(EVENT_FENCED_REROUTED);
      sendEnds(); // the router sees ends and re-routes in the order they happened
      router.tell(new Reroute(r, slot));
    } else {
      end(r, forRouter(r, c));
    }
  }

  private void refill() {
    while (listed && sent.size() < window && !waiting.isEmpty()) {
      send(waiting.pollFirst());
    }
  }

  /** Event keys in /metrics (see {@link NodeMetrics#event}). */
  static final String EVENT_SUSPECTED = "queue-suspected";

  static final String EVENT_REINSTATED = "queue-reinstated";
  static final String EVENT_FENCED_REROUTED = "fenced-rerouted";
  static final String EVENT_FENCED_AFTER_END = "fenced-after-end";
  static final String EVENT_COMPLETION_AFTER_END = "completion-after-end";

  private void armSuspect(long delay) {
    suspectDue = clock.nanoTime() + delay;
    timers.startSingleTimer(SuspectCheck.INSTANCE, Duration.ofNanos(delay));
  }

  /**
   * How late a timer may fire before this host counts as not having run on time itself (a GC pause,
   * a starved CPU): then the answers it has not read yet may be waiting behind the timer, and it
   * looks again a little later instead of judging the queue.
   */
  private long lateness() {
    return Math.max(1_000_000, suspectNanos / 4);
  }

  private boolean mayBeSuspected() {
    return queue != null && !suspected && !sent.isEmpty();
  }

  private Behavior<Command> onSuspectCheck() {
    if (!mayBeSuspected()) {
      return this; // the next send arms it again
    }
    long now = clock.nanoTime();
    long left = Math.max(lastAnswer, busySince) + suspectNanos - now;
    if (left > 0) {
      armSuspect(left);
    } else if (now - suspectDue > lateness()) {
      armSuspect(lateness());
    } else {
      getContext().getSelf().tell(SuspectConfirm.INSTANCE);
    }
    return this;
  }

  private Behavior<Command> onSuspectConfirm() {
    if (!mayBeSuspected()) {
      return this;
    }
    long now = clock.nanoTime();
    long quietSince = Math.max(lastAnswer, busySince);
    if (now - quietSince < suspectNanos) { // an answer was in the mailbox after all
      armSuspect(quietSince + suspectNanos - now);
      return this;
    }
    if (!leaveIfNotLast()) {
      // every other slot is out already: there is nowhere else to send anything, and a router
      // without a queue would answer every request ENOTCONN at once; wait for answers or membership
      armSuspect(lateness());
      return this;
    }
    suspect(true);
    getContext()
        .getLog()
        .info(
            "queue slot {} suspected: {} requests outstanding, no answer for {} ms; out of the"
                + " masks until it answers",
            slot,
            sent.size(),
            (now - quietSince) / 1_000_000);
    listed = false;
    router.tell(new QueueListed(slot, false)); // the router answers with Evacuate
    returnOutbox();
    giveUp(now);
    updateGauge();
    return this;
  }

  /** Takes this slot off the shared count unless it is the last one listed. */
  private boolean leaveIfNotLast() {
    for (int n = listedSlots.get(); n > 1; n = listedSlots.get()) {
      if (listedSlots.compareAndSet(n, n - 1)) {
        return true;
      }
    }
    return false;
  }

  /** Suspected or reinstated: the flag, its event and the queue's gauge. */
  private void suspect(boolean on) {
    suspected = on;
    metrics.event(on ? EVENT_SUSPECTED : EVENT_REINSTATED);
    if (gauge != null) {
      gauge.setSuspected(on);
    }
  }

  private void reinstate() {
    suspect(false);
    getContext().getLog().info("queue slot {} answered again: reinstated", slot);
    if (!listed) {
      list();
    }
    takeBackGivenUp();
    refill();
    updateGauge();
  }

  /**
   * A queue that answers again is alive: what it had been sent and this slot had given up on (not
   * ended yet) is on it again, and ends with its real outcome. Safe because of the fence: the
   * device either did it, does it, or refuses it unstarted (ENOTCONN, routed again); if it falls
   * silent again, these are given up at once, their fences having passed meanwhile or not.
   */
  private void takeBackGivenUp() {
    boolean wasIdle = sent.isEmpty();
    for (var it = ending.values().iterator(); it.hasNext(); ) {
      Ending e = it.next();
      if (e.binding() == binding) {
        it.remove();
        sent.put(e.request().id(), e.sent());
      }
    }
    if (sent.isEmpty()) {
      return;
    }
    if (wasIdle) {
      busySince = clock.nanoTime();
    }
    if (suspectNanos > 0 && !timers.isTimerActive(SuspectCheck.INSTANCE)) {
      armSuspect(suspectNanos);
    }
  }

  private void list() {
    listed = true;
    listedSlots.incrementAndGet();
    router.tell(new QueueListed(slot, true));
  }

  private void unlist() {
    if (listed) {
      listed = false;
      listedSlots.decrementAndGet();
      router.tell(new QueueListed(slot, false)); // the router answers with Evacuate
    }
  }

  /** Routed but not on the wire yet (the Flush had not come): as good as waiting, first in line. */
  private void returnOutbox() {
    for (int i = outbox.size() - 1; i >= 0; i--) {
      Sent s = sent.remove(outbox.get(i).request.id());
      waiting.addFirst(s.request);
    }
    outbox.clear();
  }

  /** Everything sent to the bound queue is given up on: ended as unknown once its fence allows. */
  private void giveUp(long now) {
    for (Sent s : sent.values()) {
      ending.put(s.request.id(), new Ending(s, binding, queueIndex));
    }
    sent.clear();
    endDue(now);
  }

  private Behavior<Command> onEndDue() {
    long now = clock.nanoTime();
    if (now - endDueAt > lateness()) { // this host was late itself: answers may be waiting
      armEndDue(lateness());
      return this;
    }
    return endDue(now);
  }

  private void armEndDue(long delay) {
    endDueAt = clock.nanoTime() + delay;
    timers.startSingleTimer(EndDue.INSTANCE, Duration.ofNanos(delay));
  }

  private Behavior<Command> endDue(long now) {
    long next = Long.MAX_VALUE;
    for (var it = ending.values().iterator(); it.hasNext(); ) {
      Ending e = it.next();
      if (e.notBefore() - now <= 0) {
        it.remove();
        gone.put(e.request().id(), new Gone(e.binding(), e.index()));
        endUnknown(e.request());
      } else {
        next = Math.min(next, e.notBefore() - now);
      }
    }
    if (next != Long.MAX_VALUE) {
      armEndDue(next);
    }
    return this;
  }

  private void end(Request r, Completion c) {
    completed++;
    if (c.status() != Status.OK) {
      errors++;
    }
    Ended e = new Ended(r, c, slot, slot);
    if (ends != null) {
      ends.add(e);
    } else {
      router.tell(e);
    }
  }

  /**
   * What a completion batch has ended so far goes to the router in one message; the batch's later
   * ends are collected anew.
   */
  private void sendEnds() {
    if (ends != null && !ends.isEmpty()) {
      router.tell(FlowProtocol.EndedAll.of(ends));
      ends = new ArrayList<>();
    }
  }

  /** Sent to a device that went away or fell silent: it may or may not have been done. */
  private void endUnknown(Request r) {
    long now = clock.nanoTime();
    end(r, new Completion(r.id(), Status.ECONNABORTED, r.submitNanos(), now, now, -1));
  }

  /**
   * The device's completion as the router's. A data-carrying read must bring back exactly its
   * length of bytes: a device that answers OK without them (or with another length) ended it with
   * an I/O error, and bytes nobody asked for are not passed on.
   */
  private static Completion forRouter(Request r, Completion c) {
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
        r.id(), status, c.submitNanos(), c.dispatchNanos(), c.completeNanos(), c.queue(), data);
  }

  private void dropWrongQueue(Completion c, int expected) {
    metrics.dropped(HostRouter.DROPPED_WRONG_QUEUE);
    PeerLog.warn(
        getContext().getLog(),
        HostRouter.DROPPED_WRONG_QUEUE,
        "completion {} from queue {} dropped: request was sent to queue {}",
        c.id(),
        c.queue(),
        expected);
  }

  private Behavior<Command> onBind(Bind b) {
    queue = b.queue();
    binding++;
    queueIndex = -1;
    announced = null;
    suspected = false;
    minRtt = Long.MAX_VALUE;
    gauge = metrics.queue(queue.path().toString());
    gauge.setSuspected(false);
    if (!listed) {
      list();
    }
    refill();
    updateGauge();
    return this;
  }

  private Behavior<Command> onUnbind(Unbind u) {
    if (queue == null) {
      return this;
    }
    UniqueAddress node = announced;
    boolean leavingInOrder =
        clusterSystem
            && node != null
            && node.address().host().isDefined()
            && !u.unreachable().contains(node);
    returnOutbox();
    int lost = sent.size();
    if (leavingInOrder) {
      for (Sent s : sent.values()) {
        draining.add(node, s.request.id(), new Drained(s.request, queueIndex));
      }
      sent.clear();
    } else {
      giveUp(clock.nanoTime());
    }
    if (leavingInOrder && lost > 0 && !timers.isTimerActive(new DrainTimer(node))) {
      timers.startSingleTimer(
          new DrainTimer(node),
          new NodeGone(
              node, "did not finish within " + HostRouter.DRAIN_TIMEOUT.toSeconds() + " s"),
          HostRouter.DRAIN_TIMEOUT);
    }
    if (lost > 0 || !waiting.isEmpty()) {
      getContext()
          .getLog()
          .info(
              "queue slot {} left: {} requests in flight {}, {} waiting re-routed",
              slot,
              lost,
              leavingInOrder
                  ? "left to finish (it announced a drain)"
                  : "ended with ECONNABORTED (fate unknown)",
              waiting.size());
    }
    if (gauge != null) {
      metrics.removeQueue(gauge.name());
      gauge = null;
    }
    queue = null;
    queueIndex = -1;
    announced = null;
    suspected = false;
    unlist();
    return this;
  }

  /** The router took this slot out of its masks: what waits here goes back to it. */
  private Behavior<Command> onEvacuate() {
    for (Request r; (r = waiting.pollFirst()) != null; ) {
      rerouted++;
      router.tell(new Reroute(r, slot));
    }
    updateGauge();
    return this;
  }

  private Behavior<Command> onNodeGone(NodeGone gone) {
    List<Drained> lost = draining.removeNode(gone.node());
    timers.cancel(new DrainTimer(gone.node()));
    for (Drained d : lost) {
      endUnknown(d.request());
    }
    if (!lost.isEmpty()) {
      getContext()
          .getLog()
          .info(
              "node {} {}: {} requests it was finishing ended with ECONNABORTED (fate unknown)",
              gone.node(),
              gone.why(),
              lost.size());
    }
    return this;
  }

  private void updateGauge() {
    if (gauge != null) {
      gauge.set(sent.size(), waiting.size());
    }
  }

  private Behavior<Command> onReport(QueueReport r) {
    List<Long> stuck = new ArrayList<>(sent.keySet());
    waiting.forEach(w -> stuck.add(w.id()));
    stuck.addAll(ending.keySet());
    r.replyTo()
        .tell(
            new QueueStats(
                slot,
                slot,
                accepted,
                completed,
                maxOccupancy,
                overflowWaits,
                0,
                0,
                accepted,
                0,
                sent.size(),
                waiting.size(),
                List.of(),
                stuck,
                rerouted,
                0,
                errors,
                Queueing.NONE)); // a remote queue's shell measures no queueing
    return this;
  }
}
