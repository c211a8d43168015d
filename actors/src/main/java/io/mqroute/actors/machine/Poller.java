package io.mqroute.actors.machine;

import io.mqroute.actors.device.Device;
import io.mqroute.actors.device.IoDevice;
import io.mqroute.actors.machine.FlowProtocol.DeviceDone;
import io.mqroute.actors.machine.FlowProtocol.PollerCommand;
import io.mqroute.actors.machine.FlowProtocol.PollerFault;
import io.mqroute.actors.machine.FlowProtocol.Serve;
import io.mqroute.actors.machine.FlowProtocol.ServerDone;
import io.mqroute.actors.machine.FlowProtocol.WorkerFree;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.TimedDelivery;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * The device side of one queue: its busy-polling thread(s) (the DPU model), or the FUSE server
 * thread(s) of a ring queue. When a worker is free and the current batch is used up it takes
 * everything that has arrived as the next batch and starts it in the {@link DispatchOrder} (the
 * serial virtiofsd loop of fv_queue_thread; LIFO within a batch is the seed 004 bug).
 */
public final class Poller extends AbstractBehavior<PollerCommand> {
  private final NanoClock clock;

  /** The device's times end in a timed delivery to this poller (one timer, no wrapper). */
  private final TimedDelivery.Clock deliveries;

  private final ActorContext<PollerCommand> ctx;
  private final Device device;
  private final RandomGenerator rnd;
  private final DispatchOrder order;
  private final int concurrency;
  private final long serverNanos;

  /** Where the server thread runs: the queue's CPU, until hotplug moves it. */
  private ActorRef<CoreProtocol.Command> core;

  /** Hotplug moved the server thread ({@link FlowProtocol.MoveServer}) since the start. */
  private boolean moved;

  private final ArrayDeque<Serve> arrived = new ArrayDeque<>();

  /** Device completions on their way straight to the queue (see {@link #deviceTime}). */
  private final ArrayDeque<Direct> direct = new ArrayDeque<>();

  private Serve[] batch = new Serve[16];
  private int[] batchOrder = new int[16];
  private int batchPos;
  private int batchLen;
  // while a ServeAll is handled: what finished inline, for one ServedAll to its queue (null
  // otherwise; a ServeAll comes from one queue)
  private List<FlowProtocol.OnRing> finishedInline;
  private ActorRef<FlowProtocol.QueueCommand> finishedTo;

  private int busy;

  /**
   * Injected faults (all off unless a chaos run turns them on; then they draw from {@code faults}).
   */
  private final RandomSource faults;

  private final boolean commitBeforeNext;

  /**
   * Whether a request's server work and device time may be one CPU item ({@link #chainsDevice}).
   */
  private final boolean chainDevice;

  private double eioProbability;
  private boolean stalled;
  private double slowdown = 1;

  /** Since the poller started: its busy workers and the requests waiting for one, over time. */
  private final long startNanos;

  private final TimeIntegral busyTime;
  private final TimeIntegral waitingTime;
  private long started;
  private long waited;
  private long waitNanos;

  /**
   * @param serverNanos CPU work on {@code core} per request before the device (a FUSE server
   *     thread), 0 for a device that polls from outside the host's CPUs
   * @param commitBeforeNext a fuse-over-io-uring ring thread: it takes its next request only after
   *     the queue has ended the last one ({@link FlowProtocol.Committed}), as COMMIT_AND_FETCH
   *     commits (nr_reqs--, fuse_request_end, the waiter's wake-up) before it fetches
   * @param chainDevice a run without injected faults: a ring thread's server work and device time
   *     may be one CPU item ({@link #chainsDevice}); a fault that starts while a request is in its
   *     server work would otherwise meet a device time already drawn
   */
  public static Behavior<PollerCommand> create(
      Device device,
      RandomSource service,
      DispatchOrder order,
      int pollers,
      long serverNanos,
      ActorRef<CoreProtocol.Command> core,
      RandomSource faults,
      boolean commitBeforeNext,
      boolean chainDevice) {
    return Behaviors.setup(
        ctx ->
            new Poller(
                ctx,
                device,
                service,
                order,
                pollers,
                serverNanos,
                core,
                faults,
                commitBeforeNext,
                chainDevice));
  }

  private Poller(
      ActorContext<PollerCommand> ctx,
      Device device,
      RandomSource service,
      DispatchOrder order,
      int pollers,
      long serverNanos,
      ActorRef<CoreProtocol.Command> core,
      RandomSource faults,
      boolean commitBeforeNext,
      boolean chainDevice) {
    super(ctx);
    this.deliveries = TimedDelivery.of(ctx.getSystem());
    this.clock = deliveries;
    this.ctx = ctx;
    this.device = device;
    this.rnd = service::nextLong;
    this.order = order;
    this.concurrency = concurrency(order, pollers);
    this.serverNanos = serverNanos;
    this.core = core;
    this.faults = faults;
    this.commitBeforeNext = commitBeforeNext;
    this.chainDevice = chainDevice;
    this.startNanos = clock.nanoTime();
    this.busyTime = new TimeIntegral(startNanos);
    this.waitingTime = new TimeIntegral(startNanos);
  }

  /** How many requests a poller of {@code pollers} threads serves at once in this order. */
  static int concurrency(DispatchOrder order, int pollers) {
    return order.completesInOrder() ? pollers : order.concurrency();
  }

  @Override
  public Receive<PollerCommand> createReceive() {
    return SwitchReceive.of(this::hot, builtReceive());
  }

  /** The request path's messages (see {@link SwitchReceive}); null for the rest. */
  private Behavior<PollerCommand> hot(PollerCommand m) {
    if (m instanceof Serve s) {
      return onServe(s);
    }
    if (m instanceof FlowProtocol.ServeAll all) {
      return onServeAll(all);
    }
    if (m == FlowProtocol.Committed.INSTANCE) {
      return counted(release());
    }
    if (m instanceof FlowProtocol.CommitServe cs) {
      arrived.addAll(cs.serves());
      return counted(release());
    }
    if (m instanceof ServerDone d) {
      return onServerDone(d);
    }
    if (m instanceof DeviceDone d) {
      return counted(complete(d.serve(), d.releasesWorker()));
    }
    return null;
  }

  private Receive<PollerCommand> builtReceive() {
    return newReceiveBuilder()
        .onMessage(FlowProtocol.IoDone.class, d -> counted(onIoDone(d)))
        .onMessage(WorkerFree.class, w -> counted(release()))
        .onMessage(PollerFault.class, f -> counted(onFault(f)))
        .onMessage(FlowProtocol.PollerReport.class, this::onReport)
        .onMessage(
            FlowProtocol.MoveServer.class,
            m -> {
              core = m.core();
              moved = true;
              return this;
            })
        .build();
  }

  private Behavior<PollerCommand> onServe(Serve s) {
    arrived.addLast(s);
    pump();
    return counted(this);
  }

  /**
   * A batch from an in-place queue: what the device finishes inline goes back to the queue in one
   * {@link FlowProtocol.ServedAll}.
   */
  private Behavior<PollerCommand> onServeAll(FlowProtocol.ServeAll all) {
    arrived.addAll(all.serves());
    finishedInline = new ArrayList<>(all.serves().size());
    pump();
    List<FlowProtocol.OnRing> items = finishedInline;
    finishedInline = null;
    if (!items.isEmpty()) {
      finishedTo.tell(FlowProtocol.ServedAll.of(items));
    }
    return counted(this);
  }

  /**
   * After a message that may have changed how many workers are busy or requests wait for one: the
   * time integrals take the new counts from now on.
   */
  private Behavior<PollerCommand> counted(Behavior<PollerCommand> next) {
    long now = clock.nanoTime();
    busyTime.set(now, busy);
    waitingTime.set(now, arrived.size() + (batchLen - batchPos));
    return next;
  }

  private Behavior<PollerCommand> onReport(FlowProtocol.PollerReport r) {
    long now = clock.nanoTime();
    r.replyTo()
        .tell(
            new FlowProtocol.PollerCounters(
                new Queueing(
                    concurrency,
                    now - startNanos,
                    started,
                    waited,
                    waitNanos,
                    busyTime.area(now),
                    waitingTime.area(now),
                    0)));
    return this;
  }

  private Behavior<PollerCommand> onFault(PollerFault f) {
    switch (f.fault().kind()) {
      case EIO -> {
        eioProbability = f.fault().value();
        if (eioProbability > 0) {
          recallDirect();
        }
      }
      case SLOWDOWN -> slowdown = Math.max(1, f.fault().value());
      case STALL -> {
        stalled = f.fault().value() != 0;
        pump();
      }
      default -> throw new IllegalArgumentException("not a device fault: " + f.fault());
    }
    return this;
  }

  private void pump() {
    while (busy < concurrency && !stalled) {
      Serve next = next();
      if (next == null) {
        return;
      }
      start(next);
    }
  }

  private Serve next() {
    if (batchPos == batchLen) {
      int n = arrived.size();
      if (n == 0) {
        return null;
      }
      if (batch.length < n) {
        batch = new Serve[Integer.highestOneBit(n) << 1];
        batchOrder = new int[batch.length];
      }
      for (int i = 0; i < n; i++) {
        batch[i] = arrived.pollFirst();
        batchOrder[i] = i;
      }
      order.order(batchOrder, 0, n);
      batchPos = 0;
      batchLen = n;
    }
    Serve s = batch[batchOrder[batchPos]];
    batch[batchOrder[batchPos++]] = null;
    return s;
  }

  private void start(Serve s) {
    busy++;
    long wait = clock.nanoTime() - s.item().acceptedNanos();
    started++;
    waited += wait > 0 ? 1 : 0;
    waitNanos += wait;
    if (device instanceof IoDevice io) { // real I/O (a node's file backend): its result, when done
      CompletableFuture<IoDevice.Result> f = io.execute(s.item().request()).toCompletableFuture();
      if (f.isDone()) {
        // done inline (a page-cache copy on this thread): no message to self for it
        ioResult(
            s, f.isCompletedExceptionally() ? new IoDevice.Result(Status.EIO, null) : f.join());
        busy--; // the caller's pump goes on
        return;
      }
      ctx.pipeToSelf(
          f,
          (result, failure) ->
              new FlowProtocol.IoDone(
                  s, failure == null ? result : new IoDevice.Result(Status.EIO, null)));
    } else if (device.onCpu()) {
      // the server thread does the I/O itself: its CPU work is the service
      serverWork(serverNanos + service(s), new ServerDone(s, 0));
    } else if (serverNanos > 0 && chainsDevice(s)) {
      // a device whose time does not depend on when it is drawn: drawn now, in the order the
      // server thread's ends would draw it (one core, first come first served)
      long svc = service(s);
      if (device.workerNanos(svc) >= svc) {
        // a ring thread held until its commit, no EIO to draw: the server thread's work and then
        // the device's time are one item on its core, whose result reaches the queue at the
        // device's end (ServerDone and deviceTime's timed delivery in one; the core is free while
        // the device runs)
        FlowProtocol.UsedRing used = (FlowProtocol.UsedRing) s.done();
        FlowProtocol.Served held = heldServed(s);
        // and at the device's end that core may take the harvest item itself (the queue would
        // ask it for just that, at that instant: the queue's one ring thread is held until this
        // commit, so nothing else can be waiting to join the harvest)
        CoreProtocol.Exec<?> work =
            harvestsOnCore(used)
                ? new CoreProtocol.Exec<>(
                    serverNanos,
                    Work.SERVER,
                    core,
                    used.harvests()
                        .item(
                            used.queue(),
                            new FlowProtocol.ServedHarvested(held.item()),
                            held.item(),
                            clock.nanoTime()),
                    Work.SERVER.iowaitWakeup(),
                    svc)
                : new CoreProtocol.Exec<>(
                    serverNanos, Work.SERVER, used.queue(), held, Work.SERVER.iowaitWakeup(), svc);
        core.tell(work);
      } else {
        serverWork(serverNanos, new ServerDone(s, svc));
      }
    } else if (serverNanos > 0) {
      // the device is asked when the server thread hands the request over
      serverWork(serverNanos, new ServerDone(s, ServerDone.ASK_DEVICE));
    } else {
      deviceTime(s, service(s));
    }
  }

  /** The server thread's CPU work on its core, then {@code done} back here. */
  private void serverWork(long nanos, ServerDone done) {
    core.tell(new CoreProtocol.Exec<>(nanos, Work.SERVER, getContext().getSelf(), done));
  }

  /**
   * Whether the server thread's work and the device's time can be one CPU item whose result goes
   * straight to the queue (issue #18): a ring thread held until its commit, on a device whose time
   * is the same whenever it is drawn, in a run without injected faults (an EIO or a slowdown that
   * starts during the server work must still reach the request, as it does through ServerDone).
   * Exact: the device draws come in the same order (one core serves the server work first come
   * first served) and the result reaches the queue at the same instant.
   */
  private boolean chainsDevice(Serve s) {
    return chainDevice && device.timeInvariant() && deliversStraight(s);
  }

  /**
   * Whether the device's end decides nothing on this poller: a ring thread held until its commit,
   * no EIO to draw, a queue's mailbox as the ring's used side. The request's completion can then go
   * to the queue from that instant ({@link #heldServed}).
   */
  private boolean deliversStraight(Serve s) {
    return commitBeforeNext && eioProbability == 0 && s.done() instanceof FlowProtocol.UsedRing;
  }

  /**
   * Whether the core that runs the server work also starts the queue's harvest at the device's end
   * (fuse_uring_commit_fetch on the ring thread's CPU): one ring thread, held until its commit, on
   * the CPU the queue harvests on (not moved by hotplug).
   */
  private boolean harvestsOnCore(FlowProtocol.UsedRing used) {
    return concurrency == 1 && used.harvests() != null && !moved;
  }

  /** What {@link #complete} would pass on for {@code s}: its item, its worker held. */
  private static FlowProtocol.Served heldServed(Serve s) {
    FlowProtocol.OnRing item = s.item();
    return new FlowProtocol.Served(
        new FlowProtocol.OnRing(item.request(), item.acceptedNanos(), item.status(), true));
  }

  /**
   * The device's time for the request from now: a disk books its head when the request reaches it.
   */
  private long service(Serve s) {
    Request r = s.item().request();
    long svc =
        device.serviceNanos(r.op(), r.fileId(), r.offset(), r.length(), clock.nanoTime(), rnd);
    return slowdown != 1 ? Math.round(svc * slowdown) : svc;
  }

  private Behavior<PollerCommand> onServerDone(ServerDone d) {
    deviceTime(
        d.serve(), d.deviceNanos() == ServerDone.ASK_DEVICE ? service(d.serve()) : d.deviceNanos());
    return counted(this);
  }

  /**
   * Device time: the worker is busy for the device's worker share of it, the request done at its
   * end.
   */
  private void deviceTime(Serve s, long nanos) {
    if (nanos == 0) {
      complete(s, true);
      return;
    }
    long worker = device.workerNanos(nanos);
    if (worker < nanos) {
      if (worker == 0) {
        release();
      } else {
        WorkerFree free = new WorkerFree(s);
        deliveries.after(worker, ctx.getSelf(), free);
      }
      DeviceDone done = new DeviceDone(s, false);
      deliveries.after(nanos, ctx.getSelf(), done);
    } else if (deliversStraight(s)) {
      // a ring thread held until its commit, no EIO to draw: the device's end decides nothing here
      // (complete() would only mark the item held and pass it on), so it goes to the queue from
      // that instant, one timer and no task on this poller. An EIO fault that arrives before it
      // turns it back into a DeviceDone (onFault).
      TimedDelivery d =
          deliveries.after(nanos, ((FlowProtocol.UsedRing) s.done()).queue(), heldServed(s));
      pruneDirect();
      direct.addLast(new Direct(s, d));
    } else {
      DeviceDone done = new DeviceDone(s, true);
      deliveries.after(nanos, ctx.getSelf(), done);
    }
  }

  /** A device completion delivered straight to the queue, until it has been delivered. */
  private record Direct(Serve serve, TimedDelivery delivery) {}

  private void pruneDirect() {
    while (!direct.isEmpty() && direct.peekFirst().delivery().delivered()) {
      direct.pollFirst();
    }
  }

  /** From now on completions draw EIO: those still in the device come back here to draw it. */
  private void recallDirect() {
    for (Direct d; (d = direct.pollFirst()) != null; ) {
      d.delivery().redirect(ctx.getSelf(), new DeviceDone(d.serve(), true));
    }
  }

  private Behavior<PollerCommand> onIoDone(FlowProtocol.IoDone d) {
    ioResult(d.serve(), d.result());
    return release();
  }

  /** Real I/O's result goes to the queue (its worker is free once the caller says so). */
  private void ioResult(Serve s, IoDevice.Result result) {
    FlowProtocol.OnRing item = s.item();
    FlowProtocol.OnRing done =
        new FlowProtocol.OnRing(
            item.request(), item.acceptedNanos(), result.status(), false, result.data());
    if (finishedInline != null && s.done() instanceof FlowProtocol.UsedRing u) {
      finishedInline.add(done);
      finishedTo = u.queue();
    } else {
      s.done().accept(done);
    }
  }

  private Behavior<PollerCommand> complete(Serve s, boolean releasesWorker) {
    boolean eio = eioProbability > 0 && faults.nextDouble() < eioProbability;
    // a worker already freed by the device (WorkerFree: an async backend) has nothing to wait for
    boolean holds = releasesWorker && commitBeforeNext;
    FlowProtocol.OnRing item = s.item();
    if (eio || holds) {
      item =
          new FlowProtocol.OnRing(
              item.request(), item.acceptedNanos(), eio ? Status.EIO : item.status(), holds);
    }
    s.done().accept(item);
    if (releasesWorker && !holds) {
      release();
    }
    return this;
  }

  private Behavior<PollerCommand> release() {
    busy--;
    pump();
    return this;
  }
}
