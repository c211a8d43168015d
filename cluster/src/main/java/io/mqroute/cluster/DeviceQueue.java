package io.mqroute.cluster;

import com.typesafe.config.Config;
import io.mqroute.cluster.DeviceQueueProtocol.Accepted;
import io.mqroute.cluster.DeviceQueueProtocol.Command;
import io.mqroute.cluster.DeviceQueueProtocol.Drain;
import io.mqroute.cluster.DeviceQueueProtocol.Executed;
import io.mqroute.cluster.DeviceQueueProtocol.ExecutedIo;
import io.mqroute.cluster.DeviceQueueProtocol.Flush;
import io.mqroute.cluster.DeviceQueueProtocol.GetStats;
import io.mqroute.cluster.DeviceQueueProtocol.RetryTick;
import io.mqroute.cluster.DeviceQueueProtocol.Settled;
import io.mqroute.cluster.DeviceQueueProtocol.Stats;
import io.mqroute.cluster.DeviceQueueProtocol.Submit;
import io.mqroute.cluster.DeviceQueueProtocol.SubmitBatch;
import io.mqroute.policies.queue.RingQueue;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.apache.pekko.Done;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * One request queue on a device node (role {@code device}): registers a {@link Request} endpoint
 * under {@link #QUEUES} with the Receptionist, serves each request on its {@link Backend} and
 * answers one {@link Completion} (stamped with this queue's index) to {@link Request#replyTo()}.
 *
 * <p>Queueing: the same {@link RingQueue} as the virtual-time queue actor decides, with the same
 * settings ({@link DeviceRules}: {@code full-ring}, {@code enqueue-error}, {@code
 * enomem-probability}). At most {@code ringSize} requests are on the backend at once (the ring's
 * slots); requests beyond that wait on the overflow list, as the kernel parks requests on a full
 * ring. Under refill-on-completion (the default) the completions of one message move waiting
 * requests onto the freed slots from the head, and the first that does not fit goes back to the
 * tail (virtio_fs_request_dispatch_work); under delayed-retry only a timer (real time here) does.
 * An injected {@code -ENOMEM} ends the request with {@link Status#ENOMEM} in its completion ({@code
 * fail}) or parks it ({@code requeue}, allowed only with delayed-retry: with refill-on-completion
 * it can strand a request on an empty ring). The overflow list is unbounded because the queue never
 * refuses a request; what bounds it in practice is the submitters' own window (the host's clients),
 * not this actor. The requests one message puts on the ring are started in the {@code dispatch}
 * order ({@code fifo}, or {@code lifo-per-batch}, the seed 004 bug).
 *
 * <p>Blocking I/O never runs on the actor's dispatcher: the {@code file} backend's calls run on
 * {@code pekko.actor.default-blocking-io-dispatcher} and their result comes back as a message. The
 * requests started while handling one message (a batch, or the overflow that a completion lets in)
 * go to the pool in tasks of up to {@value #IO_PER_TASK}, each answered with one message: a thread
 * hand-over per few requests rather than per 4 KiB read, and still several I/Os at once.
 *
 * <p>Batches: a host router sends a {@link RequestBatch} (its requests answered together to the
 * batch's {@code replyTo}); the queue answers those with {@link CompletionBatch}es: completions for
 * one router accumulate until a {@code Flush} that the queue sends itself when the first one is
 * added, so everything that completed while the mailbox was busy leaves in one message. Single
 * {@link Request}s are answered one by one.
 *
 * <p>Graceful stop (coordinated shutdown, e.g. SIGTERM): in the {@code service-requests-done}
 * phase, before the node leaves the cluster, the queue tells the routers it served that it is
 * draining ({@link QueueDraining}), withdraws from the Receptionist so that routers stop sending,
 * keeps serving what it has and what is still on its way, and lets the shutdown go on once it has
 * been empty for {@link #DRAIN_SETTLE} (the routers' listings have caught up by then) or when the
 * phase times out.
 *
 * <p>Timestamps: {@code dispatchNanos} and {@code completeNanos} are read on this node's clock;
 * they are comparable with the submitter's {@code submitNanos} only when both run in the same JVM.
 */
public final class DeviceQueue extends AbstractBehavior<DeviceQueueProtocol.Command> {
  /** The Receptionist key every device queue registers under; the host routers subscribe to it. */
  public static final ServiceKey<Request> QUEUES =
      ServiceKey.create(Request.class, "mqroute-queue");

  /** How long a draining queue must stay empty before it lets the shutdown go on. */
  static final Duration DRAIN_SETTLE = Duration.ofSeconds(1);

  /** Where requests are served. */
  public sealed interface Backend permits NullBackend, FileStore {}

  /**
   * Completes every request with OK, after {@code serviceDelay} (a scheduler timer, so the request
   * stays in flight that long without holding a thread) or at once when the delay is zero.
   */
  public record NullBackend(Duration serviceDelay) implements Backend {
    public NullBackend {
      if (serviceDelay.isNegative()) {
        throw new IllegalArgumentException("serviceDelay must be >= 0, was " + serviceDelay);
      }
    }
  }

  /** The {@code file(root)} backend: real positional I/O (see {@link FileBackend#serve}). */
  public record FileStore(FileBackend files) implements Backend {
    public FileStore {
      Objects.requireNonNull(files, "files");
    }
  }

  /**
   * @param index this queue's index, reported in every completion
   * @param ringSize requests on the backend at once, >= 1
   * @param backend where requests are served
   * @param rules what the ring queue decides with
   */
  public record Settings(int index, int ringSize, Backend backend, DeviceRules rules) {
    public Settings {
      if (ringSize < 1) {
        throw new IllegalArgumentException("ringSize must be >= 1, was " + ringSize);
      }
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(rules, "rules");
    }

    /** With {@link DeviceRules#DEFAULT}. */
    public Settings(int index, int ringSize, Backend backend) {
      this(index, ringSize, backend, DeviceRules.DEFAULT);
    }

    /** The same settings for the queue {@code i}. */
    public Settings withIndex(int i) {
      return new Settings(i, ringSize, backend, rules);
    }

    /**
     * From the {@code mqroute.cluster.device} block ({@code ring-size}, {@code backend} = null |
     * file, {@code service-delay}, {@code file-root}, {@code file-max-bytes}, {@code file-count}).
     * A file backend opened here is owned by the caller, who closes it when the node stops.
     */
    public static Settings fromConfig(int index, Config c) {
      String kind = c.getString("backend");
      Backend backend =
          switch (kind) {
            case "null" -> new NullBackend(c.getDuration("service-delay"));
            case "file" ->
                new FileStore(
                    new FileBackend(
                        Path.of(c.getString("file-root")),
                        c.getBytes("file-max-bytes"),
                        FileBackend.DEFAULT_MAX_OPEN,
                        c.getInt("file-count")));
            default ->
                throw new IllegalArgumentException(
                    "mqroute.cluster.device.backend must be null or file, was " + kind);
          };
      return new Settings(index, c.getInt("ring-size"), backend, DeviceRules.fromConfig(c));
    }
  }

  private final int index;
  private final Backend backend;
  private final DispatchOrder dispatch;
  private final RingQueue<Accepted> ring;

  /** File requests served one after the other by one blocking task (see submitIo). */
  static final int IO_PER_TASK = 8;

  private final NanoClock clock;
  private final TimerScheduler<Command> timers;
  private final Executor blocking;
  // requests the ring took while handling the current message, started at its end (startRinged);
  // and the list
  // being started (swapped, since starting a zero-delay request completes it and may refill)
  private ArrayList<Accepted> ringed = new ArrayList<>();
  private ArrayList<Accepted> starting = new ArrayList<>();
  private int[] startOrder = new int[16];
  // file I/O started while handling the current message, submitted at its end (submitIo)
  private final ArrayList<Accepted> ioBatch = new ArrayList<>();
  // completions waiting for the next Flush, per router
  private final HashMap<ActorRef<CompletionBatch>, ArrayList<Completion>> outbox = new HashMap<>();
  private boolean flushPending;
  // routers that sent batches here: told of a graceful drain (QueueDraining) so they wait for what
  // is in flight
  private final HashSet<ActorRef<CompletionBatch>> routers = new HashSet<>();
  private final ActorRef<Request> endpoint;
  private final boolean clusterSystem;
  private final Cancellable drainTask;
  private ActorRef<Done> drained;
  private boolean settled;
  private final NodeMetrics metrics;
  private final NodeMetrics.QueueGauge gauge;
  // timer keys: request ids are the sender's, and two routers may reuse one, so the queue counts
  // its own
  private long timerSeq;

  /** A queue that registers itself with the Receptionist on start. */
  public static Behavior<Command> create(Settings settings) {
    return Behaviors.setup(
        ctx -> Behaviors.withTimers(timers -> new DeviceQueue(ctx, timers, settings)));
  }

  private DeviceQueue(ActorContext<Command> ctx, TimerScheduler<Command> timers, Settings s) {
    super(ctx);
    this.index = s.index();
    this.backend = s.backend();
    this.dispatch = s.rules().dispatch();
    this.ring =
        RingQueue.newBuilder(new Shell())
            .ringSize(s.ringSize())
            .fullRing(s.rules().fullRing())
            .enqueueError(s.rules().enqueueError())
            .enomem(
                s.rules().enomemProbability(),
                SeededRandom.stream(s.rules().seed(), "device-queue-" + index))
            .build();
    this.clock = NanoClock.SYSTEM;
    this.timers = timers;
    this.blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    // ServiceKey<Request> needs an ActorRef<Request>; the adapter is resolvable from other nodes
    // like any ref
    this.metrics = NodeMetrics.get(ctx.getSystem());
    this.clusterSystem =
        ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster");
    this.gauge = metrics.queue(ctx.getSelf().path().toString());
    // one ref for both adapters (an actor's adapters share it): routers send batches to the
    // registered ref
    this.endpoint = ctx.messageAdapter(Request.class, Submit::new);
    ctx.messageAdapter(RequestBatch.class, SubmitBatch::new);
    ctx.getSystem().receptionist().tell(Receptionist.register(QUEUES, endpoint));
    ActorRef<Command> self = ctx.getSelf();
    CoordinatedShutdown shutdown = CoordinatedShutdown.get(Adapter.toClassic(ctx.getSystem()));
    Duration phase =
        Duration.ofMillis(
            shutdown.timeout(CoordinatedShutdown.PhaseServiceRequestsDone()).toMillis());
    this.drainTask =
        shutdown.addCancellableTask(
            CoordinatedShutdown.PhaseServiceRequestsDone(),
            "drain-" + ctx.getSelf().path().name(),
            () ->
                AskPattern.<Command, Done>ask(self, Drain::new, phase, ctx.getSystem().scheduler())
                    .exceptionally(timeout -> Done.getInstance()));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(
            Submit.class,
            m -> {
              if (!fromMember(m.request().replyTo())) {
                return this;
              }
              accept(new Accepted(m.request(), null), clock.nanoTime());
              return started();
            })
        .onMessage(
            SubmitBatch.class,
            m -> {
              ActorRef<CompletionBatch> reply = m.batch().replyTo();
              if (!fromMember(reply)) {
                return this;
              }
              if (routers.add(reply)) {
                // a new router: forget the ones that left the cluster rather than keep every router
                // ever seen
                routers.removeIf(r -> !isMember(r));
              }
              long now = clock.nanoTime();
              for (Request r : m.batch().requests()) {
                accept(new Accepted(r, reply), now);
              }
              return started();
            })
        .onMessage(Executed.class, this::onExecuted)
        .onMessageEquals(
            RetryTick.INSTANCE,
            () -> {
              ring.retry(clock.nanoTime());
              return started();
            })
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(ExecutedIo.class, this::onServedIo)
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessage(Drain.class, this::onDrain)
        .onMessageEquals(
            Settled.INSTANCE,
            () -> {
              settled = true;
              return checkDrained();
            })
        .onSignal(
            PostStop.class,
            stop -> {
              drainTask.cancel();
              return this;
            })
        .build();
  }

  /**
   * Requests dropped: their replyTo is null or on a system that is not a member of this cluster.
   */
  static final String DROPPED_STRANGER = "request-from-non-member";

  /**
   * Only members (and this system) get served: Artery accepts frames from anyone who can connect,
   * and a device would otherwise do I/O for, and send completions to, any address a frame names.
   * Without a replyTo the sender is unknown and nobody could get the answer: dropped too.
   */
  private boolean fromMember(ActorRef<?> replyTo) {
    if (replyTo != null && isMember(replyTo)) {
      return true;
    }
    metrics.dropped(DROPPED_STRANGER);
    getContext().getLog().debug("request from {} dropped: not a member of the cluster", replyTo);
    return false;
  }

  /** On this system, or on a member that is not Down or Removed in this node's current view. */
  private boolean isMember(ActorRef<?> ref) {
    Address a = ref.path().address();
    if (a.hasLocalScope()) {
      return true;
    }
    if (!clusterSystem) {
      return false;
    }
    Cluster cluster = Cluster.get(getContext().getSystem());
    if (a.equals(cluster.selfMember().address())) {
      return true;
    }
    for (Member m : cluster.state().getMembers()) {
      if (m.address().equals(a)) {
        // a host in coordinated shutdown is Leaving, then Exiting, and still forwards what its
        // clients send
        return m.status() != MemberStatus.down() && m.status() != MemberStatus.removed();
      }
    }
    return false;
  }

  private Behavior<Command> onDrain(Drain d) {
    drained = d.replyTo();
    // Before deregistering: the routers then know that the queue's leaving the listing is a drain,
    // not a crash
    // (which they answer with ENOTCONN at once). Same association as the registry's gossip, so it
    // comes first.
    QueueDraining announcement = new QueueDraining(endpoint, nodeUid());
    routers.removeIf(r -> !isMember(r));
    for (ActorRef<CompletionBatch> router : routers) {
      announcementsTo(router).tell(announcement);
    }
    getContext().getSystem().receptionist().tell(Receptionist.deregister(QUEUES, endpoint));
    timers.startSingleTimer(Settled.INSTANCE, DRAIN_SETTLE);
    return this;
  }

  private long nodeUid() {
    if (!getContext()
        .getSystem()
        .settings()
        .config()
        .getString("pekko.actor.provider")
        .equals("cluster")) {
      return 0;
    }
    return Cluster.get(getContext().getSystem()).selfMember().uniqueAddress().longUid();
  }

  /**
   * A router's batch-reply ref is its message adapters' shared ref, which also adapts {@link
   * QueueDraining} (see {@link HostRouter}): the same ref, typed for the announcement.
   */
  @SuppressWarnings("unchecked")
  private static ActorRef<QueueDraining> announcementsTo(ActorRef<CompletionBatch> router) {
    return (ActorRef<QueueDraining>) (ActorRef<?>) router;
  }

  /**
   * While draining: empty, and settled since the last request arrived? Then the shutdown may go on.
   */
  private Behavior<Command> checkDrained() {
    if (drained != null && settled && ring.inFlight() == 0) {
      drained.tell(Done.getInstance());
      drained = null;
    }
    return this;
  }

  private void accept(Accepted job, long now) {
    if (drained != null) {
      // a router had not seen the withdrawal yet: serve it, and wait for quiet again
      settled = false;
      timers.startSingleTimer(Settled.INSTANCE, DRAIN_SETTLE);
    }
    ring.enqueue(
        job, now); // virtio_fs_send_req: a slot (Shell.toRing), the overflow list, or ENOMEM
  }

  /** What the ring queue's decisions do on a device node (see {@link RingQueue.Port}). */
  private final class Shell implements RingQueue.Port<Accepted> {
    @Override
    public void toRing(Accepted job) {
      ringed.add(
          job); // started when the message is handled (startRinged): never inside the ring's own
      // call
    }

    @Override
    public void failNoMemory(Accepted job) {
      long now = clock.nanoTime();
      complete(job, now, Status.ENOMEM);
    }

    @Override
    public void armRetry(long delayNanos) {
      timers.startSingleTimer(RetryTick.INSTANCE, Duration.ofNanos(delayNanos));
    }
  }

  /**
   * The end of every message that may have put requests on the ring: start them, update the gauge.
   */
  private Behavior<Command> started() {
    startRinged();
    submitIo();
    gauge.set(ring.onRing(), ring.queued());
    return checkDrained();
  }

  /**
   * Starts the requests the ring took, in the dispatch order. A zero-delay null backend completes
   * them here and now; the completions free their slots and refill (under refill-on-completion),
   * which may take more.
   */
  private void startRinged() {
    while (!ringed.isEmpty()) {
      ArrayList<Accepted> batch = ringed;
      ringed = starting;
      starting = batch;
      int n = batch.size();
      if (startOrder.length < n) {
        startOrder = new int[Integer.highestOneBit(n) << 1];
      }
      for (int i = 0; i < n; i++) {
        startOrder[i] = i;
      }
      dispatch.order(startOrder, 0, n);
      long dispatchNanos = clock.nanoTime();
      boolean completedHere = false;
      for (int i = 0; i < n; i++) {
        Accepted job = batch.get(startOrder[i]);
        if (backend instanceof NullBackend nb) {
          if (nb.serviceDelay().isZero()) {
            // nothing to wait for: complete here, without a message to self per request
            ring.complete();
            complete(job, dispatchNanos, Status.OK);
            completedHere = true;
          } else {
            timers.startSingleTimer(
                timerSeq++, new Executed(job, dispatchNanos, Status.OK), nb.serviceDelay());
          }
        } else {
          ioBatch.add(job);
        }
      }
      batch.clear();
      if (completedHere) {
        ring.refill(clock.nanoTime());
      }
    }
  }

  /**
   * Sends the file I/O started since the last call to the blocking pool, {@value #IO_PER_TASK}
   * requests per task: a task serves its requests one after the other, so a full ring still has
   * several I/Os in progress at once on a real disk, while a page-cache read (a microsecond) does
   * not pay a thread hand-over of its own.
   */
  private void submitIo() {
    for (int from = 0; from < ioBatch.size(); from += IO_PER_TASK) {
      submitIo(List.copyOf(ioBatch.subList(from, Math.min(ioBatch.size(), from + IO_PER_TASK))));
    }
    ioBatch.clear();
  }

  private void submitIo(List<Accepted> jobs) {
    FileBackend files = ((FileStore) backend).files();
    long dispatch = clock.nanoTime();
    CompletableFuture<ExecutedIo> io =
        CompletableFuture.supplyAsync(
            () -> {
              List<Status> statuses = new ArrayList<>(jobs.size());
              List<byte[]> data = new ArrayList<>(jobs.size());
              for (Accepted j : jobs) {
                Request r = j.request();
                byte[] read = null;
                Status st;
                if (!r.carriesData()) {
                  st = files.serve(r.op(), r.fileId(), r.offset(), r.length());
                } else if (r.op() == Op.WRITE) {
                  st = files.write(r.fileId(), r.offset(), ByteBuffer.wrap(r.data()));
                } else if (r.op() == Op.READ) {
                  ByteBuffer dst = ByteBuffer.allocate(r.length());
                  st = files.read(r.fileId(), r.offset(), dst);
                  read = st == Status.OK ? dst.array() : null;
                } else {
                  st = files.serve(r.op(), r.fileId(), r.offset(), r.length());
                }
                statuses.add(st);
                data.add(read);
              }
              return new ExecutedIo(jobs, dispatch, statuses, data);
            },
            blocking);
    // FileBackend answers errors as a Status; anything thrown anyway is a device I/O error for the
    // whole task
    getContext()
        .pipeToSelf(
            io,
            (done, failure) ->
                failure == null
                    ? done
                    : new ExecutedIo(
                        jobs,
                        dispatch,
                        Collections.nCopies(jobs.size(), Status.EIO),
                        Collections.nCopies(jobs.size(), null)));
  }

  private Behavior<Command> onExecuted(Executed s) {
    ring.complete();
    complete(s.job(), s.dispatchNanos(), s.status());
    ring.refill(clock.nanoTime());
    return started();
  }

  private Behavior<Command> onServedIo(ExecutedIo s) {
    for (int i = 0; i < s.jobs().size(); i++) {
      ring.complete();
      complete(s.jobs().get(i), s.dispatchNanos(), s.statuses().get(i), s.data().get(i));
    }
    ring.refill(
        clock.nanoTime()); // one dispatch work for the batch, as done_work harvests in a loop
    return started();
  }

  private Behavior<Command> onGetStats(GetStats get) {
    List<String> violations = new ArrayList<>();
    ring.checkInvariants(violations);
    get.replyTo()
        .tell(
            new Stats(
                ring.accepted(),
                ring.completed(),
                ring.onRing(),
                ring.queued(),
                ring.maxOccupancy(),
                ring.overflowWaits(),
                ring.delayedRetries(),
                ring.enomem(),
                List.copyOf(violations)));
    return this;
  }

  private void complete(Accepted job, long dispatchNanos, Status status) {
    Request r = job.request();
    // the null device stores nothing: a data-carrying read returns zeros, as from a hole
    byte[] zeros =
        r.carriesData() && r.op() == Op.READ && status == Status.OK ? new byte[r.length()] : null;
    complete(job, dispatchNanos, status, zeros);
  }

  private void complete(Accepted job, long dispatchNanos, Status status, byte[] data) {
    Request r = job.request();
    long now = clock.nanoTime();
    Completion c = new Completion(r.id(), status, r.submitNanos(), dispatchNanos, now, index, data);
    if (job.batchReply() != null) {
      ArrayList<Completion> list = outbox.computeIfAbsent(job.batchReply(), k -> new ArrayList<>());
      list.add(c);
      if (list.size() == RequestBatch.MAX_SIZE) {
        CompletionBatch.split(list).forEach(job.batchReply()::tell);
        list.clear();
      } else if (!flushPending) {
        flushPending = true;
        getContext().getSelf().tell(Flush.INSTANCE);
      }
    } else if (r.replyTo() != null) {
      r.replyTo().tell(c);
    }
    metrics.completed(status, now - dispatchNanos);
  }

  private Behavior<Command> onFlush() {
    flushPending = false;
    for (var e : outbox.entrySet()) {
      if (!e.getValue().isEmpty()) {
        CompletionBatch.split(e.getValue()).forEach(e.getKey()::tell);
        e.getValue().clear();
      }
    }
    // routers come and go: drop the emptied lists rather than keep one per router ever seen
    outbox.values().removeIf(ArrayList::isEmpty);
    return this;
  }
}
