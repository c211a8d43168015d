package io.mqroute.cluster;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.FlowProtocol.Ended;
import io.mqroute.actors.machine.FlowProtocol.Enqueue;
import io.mqroute.actors.machine.FlowProtocol.Evacuate;
import io.mqroute.actors.machine.FlowProtocol.QueueReport;
import io.mqroute.actors.machine.FlowProtocol.QueueStats;
import io.mqroute.actors.machine.FlowProtocol.Reroute;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.cluster.RemoteQueueProtocol.Bind;
import io.mqroute.cluster.RemoteQueueProtocol.Command;
import io.mqroute.cluster.RemoteQueueProtocol.Flush;
import io.mqroute.cluster.RemoteQueueProtocol.FromDevice;
import io.mqroute.cluster.RemoteQueueProtocol.FromRouter;
import io.mqroute.cluster.RemoteQueueProtocol.NodeGone;
import io.mqroute.cluster.RemoteQueueProtocol.NodeRemoved;
import io.mqroute.cluster.RemoteQueueProtocol.Unbind;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
 * <p>Window: at most {@code window} requests are on the device at once (its ring); more wait here,
 * in arrival order, and go as the device completes earlier ones. Keeping them here is what lets a
 * lost device's waiting requests be routed again: when the queue leaves ({@link Unbind}), the ones
 * sent end with {@link Status#ENOTCONN} (their fate is unknown) while the waiting ones go back to
 * the router on its {@link Evacuate} (as a hotplug-aware queue's overflow does when its CPU goes
 * offline).
 *
 * <p>Graceful leave: a queue that announced {@link QueueDraining} and whose node this host still
 * sees as reachable will finish what it was sent: those requests wait for their completions in
 * {@link Draining}, and end with ENOTCONN only if the node becomes unreachable or is removed first
 * ({@link NodeGone}), or after {@link HostRouter#DRAIN_TIMEOUT}. A queue that leaves without
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

  private final int slot;
  private final ActorRef<RouterCommand> router;
  private final int window;
  private final boolean clusterSystem;
  private final NodeMetrics metrics;
  private final TimerScheduler<Object> timers;
  private final NanoClock clock = NanoClock.SYSTEM;
  private final ActorRef<CompletionBatch> replies;

  private ActorRef<Request> queue;
  private NodeMetrics.QueueGauge gauge;
  private int queueIndex = -1;
  private UniqueAddress announced;

  /** On the device, by id: the router's request (its replyTo is the router's). */
  private final LinkedHashMap<Long, Request> sent = new LinkedHashMap<>();

  private final ArrayDeque<Request> waiting = new ArrayDeque<>();
  private final ArrayList<Request> outbox = new ArrayList<>();
  private boolean flushPending;
  private final Draining<UniqueAddress, Drained> draining = new Draining<>();

  private long accepted;
  private long completed;
  private int maxOccupancy;
  private long overflowWaits;
  private long rerouted;
  private long errors;

  /**
   * The slot's actor: its ref takes the router's {@link FlowProtocol.QueueCommand}s (it is one of
   * the router's queues) as well as the shell's {@link RemoteQueueProtocol.Command}s.
   */
  static Behavior<Object> create(int slot, ActorRef<RouterCommand> router, int window) {
    // timers outermost: their messages reach the transformation as the Commands they carry
    return Behaviors.withTimers(
        timers ->
            Behaviors.transformMessages(
                Object.class,
                Behaviors.<Command>setup(ctx -> new RemoteQueue(ctx, timers, slot, router, window)),
                pf ->
                    pf.match(Command.class, c -> c)
                        .match(FlowProtocol.QueueCommand.class, FromRouter::new)));
  }

  private RemoteQueue(
      ActorContext<Command> ctx,
      TimerScheduler<Object> timers,
      int slot,
      ActorRef<RouterCommand> router,
      int window) {
    super(ctx);
    this.slot = slot;
    this.router = router;
    this.window = window;
    this.timers = timers;
    this.clusterSystem =
        ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster");
    this.metrics = NodeMetrics.get(ctx.getSystem());
    ActorRef<Command> me = ctx.getSelf();
    ActorRef<Object> deviceReplies =
        ctx.spawn(
            Behaviors.receive(Object.class)
                .onAnyMessage(
                    m -> {
                      me.tell(new FromDevice(m));
                      return Behaviors.same();
                    })
                .build(),
            "device-replies-" + Long.toHexString(new SecureRandom().nextLong()));
    this.replies = deviceReplies.narrow();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(FromRouter.class, this::onRouter)
        .onMessage(FromDevice.class, this::onDevice)
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
        .build();
  }

  private Behavior<Command> onRouter(FromRouter m) {
    if (m.command() instanceof Enqueue e) {
      return onEnqueue(e.request());
    } else if (m.command() instanceof Evacuate) {
      return onEvacuate();
    } else if (m.command() instanceof QueueReport r) {
      return onReport(r);
    }
    return this; // the model's faults, remounts and server moves mean nothing here
  }

  private Behavior<Command> onEnqueue(Request r) {
    accepted++;
    if (queue != null && sent.size() < window) {
      send(r);
    } else {
      overflowWaits++;
      waiting.addLast(r);
    }
    updateGauge();
    return this;
  }

  private void send(Request r) {
    sent.put(r.id(), r);
    maxOccupancy = Math.max(maxOccupancy, sent.size());
    // no replyTo of its own: it travels in a RequestBatch, answered to the batch's replyTo
    outbox.add(
        new Request(
            r.id(),
            r.op(),
            r.fileId(),
            r.offset(),
            r.length(),
            r.background(),
            r.cpu(),
            r.submitNanos(),
            null,
            r.carriesData(),
            r.data()));
    if (!flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
  }

  private Behavior<Command> onFlush() {
    flushPending = false;
    if (queue != null && !outbox.isEmpty()) {
      ActorRef<RequestBatch> to = batchesTo(queue);
      RequestBatch.split(outbox, replies).forEach(to::tell);
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
    if (m.message() instanceof CompletionBatch b) {
      for (Completion c : b.completions()) {
        complete(c);
      }
    } else if (m.message() instanceof Completion c) {
      complete(c);
    } else if (m.message() instanceof QueueDraining d) {
      if (queue != null && queue.equals(d.queue())) {
        announced = new UniqueAddress(queue.path().address(), d.nodeUid());
      }
    }
    return this;
  }

  private void complete(Completion c) {
    Request r = sent.get(c.id());
    if (r == null) {
      Drained d = draining.get(c.id());
      if (d != null && d.index() >= 0 && d.index() != c.queue()) {
        dropWrongQueue(c, d.index());
      } else if (d != null) { // sent to a queue whose node is leaving in order: it finished it
        draining.remove(c.id());
        end(d.request(), forRouter(d.request(), c));
      }
      return; // otherwise it already ended with ENOTCONN when its queue left
    }
    if (queueIndex < 0) {
      queueIndex = c.queue();
    } else if (queueIndex != c.queue()) {
      dropWrongQueue(c, queueIndex);
      return;
    }
    sent.remove(c.id());
    end(r, forRouter(r, c));
    Request next = waiting.pollFirst();
    if (next != null) {
      send(next);
    }
    updateGauge();
  }

  private void end(Request r, Completion c) {
    completed++;
    if (c.status() != Status.OK) {
      errors++;
    }
    router.tell(new Ended(r, c, slot, slot));
  }

  private void endNotConnected(Request r) {
    long now = clock.nanoTime();
    end(r, new Completion(r.id(), Status.ENOTCONN, r.submitNanos(), now, now, -1));
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
    getContext()
        .getLog()
        .warn(
            "completion {} from queue {} dropped: request was sent to queue {}",
            c.id(),
            c.queue(),
            expected);
  }

  private Behavior<Command> onBind(Bind b) {
    queue = b.queue();
    queueIndex = -1;
    announced = null;
    gauge = metrics.queue(queue.path().toString());
    while (sent.size() < window && !waiting.isEmpty()) {
      send(waiting.pollFirst());
    }
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
    // routed but never sent (the Flush had not come yet): as good as waiting, first in line
    for (int i = outbox.size() - 1; i >= 0; i--) {
      waiting.addFirst(sent.remove(outbox.get(i).id()));
    }
    outbox.clear();
    int lost = sent.size();
    for (Request r : sent.values()) {
      if (leavingInOrder) {
        draining.add(node, r.id(), new Drained(r, queueIndex));
      } else {
        endNotConnected(r);
      }
    }
    sent.clear();
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
              leavingInOrder ? "left to finish (it announced a drain)" : "ended with ENOTCONN",
              waiting.size());
    }
    if (gauge != null) {
      metrics.removeQueue(gauge.name());
      gauge = null;
    }
    queue = null;
    queueIndex = -1;
    announced = null;
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
      endNotConnected(d.request());
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

  private void updateGauge() {
    if (gauge != null) {
      gauge.set(sent.size(), waiting.size());
    }
  }

  private Behavior<Command> onReport(QueueReport r) {
    List<Long> stuck = new ArrayList<>(sent.keySet());
    waiting.forEach(w -> stuck.add(w.id()));
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
                errors));
    return this;
  }
}
