package io.mqroute.cluster;

import com.typesafe.config.Config;
import io.mqroute.actors.device.Device;
import io.mqroute.actors.device.FixedDevice;
import io.mqroute.actors.device.IoDevice;
import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.PassThroughCore;
import io.mqroute.actors.machine.Poller;
import io.mqroute.actors.machine.RequestQueue;
import io.mqroute.cluster.DeviceQueueProtocol.Command;
import io.mqroute.cluster.DeviceQueueProtocol.CoreWork;
import io.mqroute.cluster.DeviceQueueProtocol.Drain;
import io.mqroute.cluster.DeviceQueueProtocol.Flush;
import io.mqroute.cluster.DeviceQueueProtocol.FromQueue;
import io.mqroute.cluster.DeviceQueueProtocol.GetStats;
import io.mqroute.cluster.DeviceQueueProtocol.QueueStatsFor;
import io.mqroute.cluster.DeviceQueueProtocol.Settled;
import io.mqroute.cluster.DeviceQueueProtocol.Stats;
import io.mqroute.cluster.DeviceQueueProtocol.Submit;
import io.mqroute.cluster.DeviceQueueProtocol.SubmitBatch;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
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
 * One request queue on a device node (role {@code device}): the model's own queue actors, run on
 * the real clock behind a thin transport shell. This actor registers a {@link Request} endpoint
 * under {@link #QUEUES} with the Receptionist and hands every request to a child {@link
 * RequestQueue} — the same ring, overflow list, full-ring strategy, ENOMEM policy and ring → poller
 * Pekko Stream as in virtual time, with the same {@link DeviceRules} — whose {@link Poller} serves
 * it on the device: {@code null} is the model's {@code fixed(service-delay)} device, {@code file} a
 * real {@link IoDevice} on the blocking-I/O dispatcher. The queue's harvest and end run on a
 * zero-cost core, as a {@link PassThroughCore} (the real CPU does that work), which is this actor
 * itself: its {@code Ended} comes straight here, where it becomes the router's {@link Completion}.
 *
 * <p>What is cluster-specific stays here: membership checks on every sender, local request ids (two
 * routers may reuse one), batching completions per router until a self-sent {@code Flush}, the
 * graceful drain, metrics. Nothing here decides about queueing.
 *
 * <p>Graceful stop (coordinated shutdown, e.g. SIGTERM): in the {@code service-requests-done}
 * phase, before the node leaves the cluster, the queue tells the routers it served that it is
 * draining ({@link QueueDraining}), withdraws from the Receptionist so that routers stop sending,
 * keeps serving what it has and what is still on its way, and lets the shutdown go on once it has
 * been empty for {@link #DRAIN_SETTLE} (the routers' listings have caught up by then) or when the
 * phase times out.
 *
 * <p>Fence (issue #15): a host's {@link RequestBatch} says when it left on the host's clock and how
 * old its requests may be when they start; the host gives up on a silent queue's requests after
 * that long (as of unknown fate) and must be able to rely on this queue not starting them later.
 * The host's clock is related to this node's by the smallest {@code arrival - sentNanos} seen from
 * that sender (offset plus the shortest one-way delay; see {@link RemoteQueue} for the bound). A
 * request is refused unstarted, answered {@link Status#ENOTCONN} ("not done"), when it arrives too
 * old, and, on the {@code file} backend, when its I/O would start too late (it waited on the ring
 * or the blocking pool while this process was stopped). The {@code null} backend does nothing a
 * fence could prevent, so it is checked on arrival only.
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

  /** Where the file backend's I/O runs ({@code mqroute.cluster.device.file-io}). */
  public enum FileIoMode {
    /**
     * On the blocking pool: a request that waits for the disk holds a pool thread, nothing else.
     */
    POOL,
    /**
     * On the queue's own thread (the node's loop): no hand-over to a pool thread and back (two
     * wake-ups, BENCHMARKS.md "Inline file I/O"), but a read that misses the page cache stalls
     * every actor and socket of the node for the disk's latency.
     */
    INLINE,
    /**
     * Inline while reads and writes stay page-cache fast, on the pool for a while after they do not
     * ({@link InlineIoPolicy}); flushes and everything else always on the pool.
     */
    AUTO
  }

  /** The {@code file(root)} backend: real positional I/O (see {@link FileBackend#serve}). */
  public record FileStore(FileBackend files, FileIoMode io) implements Backend {
    public FileStore {
      Objects.requireNonNull(files, "files");
      Objects.requireNonNull(io, "io");
    }

    /** On the blocking pool. */
    public FileStore(FileBackend files) {
      this(files, FileIoMode.POOL);
    }
  }

  /**
   * @param index this queue's index, reported in every completion
   * @param ringSize requests on the backend at once, >= 1
   * @param backend where requests are served
   * @param rules what the ring queue decides with
   * @param pollers the poller's workers (the model's {@code queues.pollers}): requests it serves at
   *     once; what arrives while all are busy is the next batch, started in {@code dispatch} order
   */
  public record Settings(int index, int ringSize, Backend backend, DeviceRules rules, int pollers) {
    public Settings {
      if (ringSize < 1) {
        throw new IllegalArgumentException("ringSize must be >= 1, was " + ringSize);
      }
      if (pollers < 1) {
        throw new IllegalArgumentException("pollers must be >= 1, was " + pollers);
      }
      Objects.requireNonNull(backend, "backend");
      Objects.requireNonNull(rules, "rules");
    }

    /** A worker per ring slot: everything on the ring is on the device at once. */
    public Settings(int index, int ringSize, Backend backend, DeviceRules rules) {
      this(index, ringSize, backend, rules, ringSize);
    }

    /** With {@link DeviceRules#DEFAULT}. */
    public Settings(int index, int ringSize, Backend backend) {
      this(index, ringSize, backend, DeviceRules.DEFAULT);
    }

    /** The same settings for the queue {@code i}. */
    public Settings withIndex(int i) {
      return new Settings(i, ringSize, backend, rules, pollers);
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
                        c.getInt("file-count")),
                    fileIo(c));
            default ->
                throw new IllegalArgumentException(
                    "mqroute.cluster.device.backend must be null or file, was " + kind);
          };
      int ring = c.getInt("ring-size");
      int pollers = c.hasPath("pollers") ? c.getInt("pollers") : ring;
      if (pollers < 1 || pollers > 65_536) {
        throw new IllegalArgumentException(
            "mqroute.cluster.device.pollers must be 1..65536, was " + pollers);
      }
      return new Settings(index, ring, backend, DeviceRules.fromConfig(c), pollers);
    }

    /** {@code file-io}: "pool", "inline" or "auto" (see {@link FileIoMode}). */
    static FileIoMode fileIo(Config c) {
      String io = c.hasPath("file-io") ? c.getString("file-io") : "auto";
      return switch (io) {
        case "pool" -> FileIoMode.POOL;
        case "inline" -> FileIoMode.INLINE;
        case "auto" -> FileIoMode.AUTO;
        default ->
            throw new IllegalArgumentException(
                "mqroute.cluster.device.file-io must be pool, inline or auto, was '" + io + "'");
      };
    }
  }

  /** Wire messages to other nodes: over the node link when there is one (NodeLink). */
  private final NodeLink.Tell wire;

  private final int index;
  private final int ringSize;
  private final ActorRef<FlowProtocol.QueueCommand> queue;

  /** A request handed to the queue under a local id: who asked, and under which id. */
  private record Pending(
      long id, ActorRef<CompletionBatch> batchReply, ActorRef<Completion> reply, long accepted) {}

  private final HashMap<Long, Pending> pending = new HashMap<>();
  private long nextLocalId;
  // per router: the smallest arrival - sentNanos of its fenced batches (clock offset + delay)
  private final HashMap<ActorRef<CompletionBatch>, Long> offsets = new HashMap<>();
  // the file backend's start-time check; null for the null backend
  private final Fence fence;

  /** Event key in /metrics: a request refused unstarted by its fence. */
  static final String EVENT_FENCED = "request-fenced";

  /**
   * Local id → the latest local time its I/O may start; read by the I/O tasks on the blocking pool,
   * written by the queue actor.
   */
  static final class Fence {
    private final java.util.concurrent.ConcurrentHashMap<Long, Long> deadlines =
        new java.util.concurrent.ConcurrentHashMap<>();
    private final NanoClock clock;
    private final NodeMetrics metrics;

    Fence(NanoClock clock, NodeMetrics metrics) {
      this.clock = clock;
      this.metrics = metrics;
    }

    void set(long localId, long deadline) {
      deadlines.put(localId, deadline);
    }

    void clear(long localId) {
      deadlines.remove(localId);
    }

    /** Whether the request may start now; one that may not is counted as fenced. */
    boolean startable(long localId) {
      Long d = deadlines.get(localId);
      if (d == null || clock.nanoTime() - d < 0) {
        return true;
      }
      metrics.event(EVENT_FENCED);
      return false;
    }
  }

  private final NanoClock clock;
  private final TimerScheduler<Object> timers;
  // the queue's own completions come here (its router, to the model's queue)
  private final ActorRef<FlowProtocol.RouterCommand> ends;
  // completions waiting for the next Flush, per router
  private final CompletionOutbox outbox;
  // routers that sent batches here: told of a graceful drain (QueueDraining) so they wait for what
  // is in flight
  private final HashSet<ActorRef<CompletionBatch>> routers = new HashSet<>();
  private final ActorRef<Request> endpoint;
  private final ActorRef<FlowProtocol.QueueStats> statsAdapter;
  private final ArrayList<ActorRef<Stats>> statsWaiting = new ArrayList<>();
  private final boolean clusterSystem;
  private final Cancellable drainTask;
  private ActorRef<Done> drained;
  private boolean settled;
  private final NodeMetrics metrics;
  private final NodeMetrics.QueueGauge gauge;

  /**
   * A queue that registers itself with the Receptionist on start. Its ref also takes {@link
   * CoreProtocol.Command}s: it is its queue's core (see {@link #onCoreWork}); Exec is no wire
   * message, so no peer can send one.
   */
  @SuppressWarnings("unchecked")
  public static Behavior<Command> create(Settings settings) {
    // timers outermost: their messages reach the transformation as the Commands they carry
    return (Behavior<Command>)
        (Behavior<?>)
            Behaviors.withTimers(
                timers ->
                    Behaviors.transformMessages(
                        Object.class,
                        Behaviors.<Command>setup(ctx -> new DeviceQueue(ctx, timers, settings)),
                        pf ->
                            pf.match(Command.class, c -> c)
                                .match(CoreProtocol.Command.class, CoreWork::new)));
  }

  private DeviceQueue(ActorContext<Command> ctx, TimerScheduler<Object> timers, Settings s) {
    super(ctx);
    this.wire = NodeLink.of(ctx.getSystem());
    this.outbox =
        new CompletionOutbox(wire, () -> ctx.getSelf().tell(Flush.INSTANCE), RequestTrace.DEV_OUT);
    this.index = s.index();
    this.ringSize = s.ringSize();
    this.clock = NanoClock.SYSTEM;
    this.timers = timers;
    this.metrics = NodeMetrics.get(ctx.getSystem());
    this.clusterSystem =
        ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster");
    this.gauge = metrics.queue(ctx.getSelf().path().toString());
    this.fence = s.backend() instanceof FileStore ? new Fence(clock, metrics) : null;
    Executor blocking = ctx.getSystem().dispatchers().lookup(DispatcherSelector.blocking());
    // this actor itself (see create): Exec is handled as PassThroughCore would, in onCoreWork
    @SuppressWarnings("unchecked")
    ActorRef<CoreProtocol.Command> core =
        (ActorRef<CoreProtocol.Command>) (ActorRef<?>) ctx.getSelf();
    this.ends = ctx.messageAdapter(FlowProtocol.RouterCommand.class, FromQueue::new);
    this.statsAdapter = ctx.messageAdapter(FlowProtocol.QueueStats.class, QueueStatsFor::new);
    // by default every slot may be on the device at once (pollers = ring size): the ring bounds it,
    // and a file backend's blocking pool bounds what runs in parallel
    Behavior<FlowProtocol.PollerCommand> poller =
        Poller.create(
            device(s.backend(), blocking, fence, metrics),
            SeededRandom.stream(s.rules().seed(), "device-service-" + index),
            s.rules().dispatch(),
            s.pollers(),
            0,
            core,
            SeededRandom.stream(s.rules().seed(), "device-faults-" + index),
            false,
            false);
    this.queue =
        ctx.spawn(
            RequestQueue.create(
                new RequestQueue.Settings(
                    index,
                    0,
                    s.ringSize(),
                    s.rules().fullRing(),
                    s.rules().enqueueError(),
                    s.rules().enomemProbability(),
                    0,
                    false,
                    true,
                    false),
                SeededRandom.stream(s.rules().seed(), "device-queue-" + index),
                poller,
                core,
                ends),
            "ring");
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

  /** The model's device for a backend: a fixed service time, or real file I/O. */
  private static Device device(
      Backend backend, Executor blocking, Fence fence, NodeMetrics metrics) {
    if (backend instanceof NullBackend nb) {
      return new FixedDevice(nb.serviceDelay().toNanos());
    }
    FileStore store = (FileStore) backend;
    FileIo pool = new FileIo(store.files(), blocking, fence);
    return switch (store.io()) {
      case POOL -> pool;
      case INLINE -> new FileIo(store.files(), null, fence);
      case AUTO ->
          new AutoFileIo(
              new FileIo(store.files(), null, fence),
              pool,
              () -> metrics.event(EVENT_FILE_IO_TO_POOL));
    };
  }

  /**
   * Event key in /metrics: a queue under {@code file-io = auto} sent its I/O to the blocking pool
   * (for {@link InlineIoPolicy#POOL_NANOS}), after inline I/O that was not page-cache fast.
   */
  static final String EVENT_FILE_IO_TO_POOL = "file-io-to-pool";

  /** What a request refused by its fence ends with: not done. */
  static final IoDevice.Result FENCED = new IoDevice.Result(Status.ENOTCONN, null);

  /**
   * The {@code file} backend as a real device: each request's I/O on the blocking pool, unless its
   * fence has passed when the task starts; with {@code file-io = inline} ({@code blocking} null) on
   * the poller's own thread, its result a completed stage (the poller's pipeToSelf then runs on
   * that thread too).
   */
  private record FileIo(FileBackend files, Executor blocking, Fence fence) implements IoDevice {
    @Override
    public CompletionStage<Result> execute(Request r) {
      if (RequestTrace.ON) {
        RequestTrace.mark(RequestTrace.DEV_POLLER, r.submitNanos());
      }
      return blocking == null
          ? CompletableFuture.completedFuture(startIo(files, fence, r))
          : CompletableFuture.supplyAsync(() -> startIo(files, fence, r), blocking);
    }

    @Override
    public String spec() {
      return "file(" + files.root() + (blocking == null ? ", inline)" : ")");
    }
  }

  /**
   * The {@code file} backend with {@code file-io = auto}: reads and writes inline while {@link
   * InlineIoPolicy} says they are page-cache fast, otherwise (and flushes, trims, everything else
   * that may wait for the disk) on the blocking pool.
   */
  private static final class AutoFileIo implements IoDevice {
    private final FileIo inline;
    private final FileIo pool;
    private final InlineIoPolicy policy = new InlineIoPolicy(true);
    private final Runnable toPool;

    AutoFileIo(FileIo inline, FileIo pool, Runnable toPool) {
      this.inline = inline;
      this.pool = pool;
      this.toPool = toPool;
    }

    @Override
    public CompletionStage<Result> execute(Request r) {
      long start = System.nanoTime();
      if ((r.op() != Op.READ && r.op() != Op.WRITE) || !policy.inline(start)) {
        return pool.execute(r);
      }
      FileBackend.Residency seen =
          policy.proving() && r.op() == Op.READ
              ? inline.files().residency(r.fileId(), r.offset(), r.length())
              : FileBackend.Residency.UNKNOWN;
      CompletionStage<Result> done = inline.execute(r);
      long end = System.nanoTime();
      if (policy.took(end - start, seen, r.length(), end)) {
        toPool.run();
      }
      return done;
    }

    @Override
    public String spec() {
      return "file(" + inline.files().root() + ", auto)";
    }
  }

  /** The I/O task: the request's file I/O unless its fence has passed by now. */
  private static IoDevice.Result startIo(FileBackend files, Fence fence, Request r) {
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.DEV_IO_START, r.submitNanos());
    }
    IoDevice.Result res = fence.startable(r.id()) ? serve(files, r) : FENCED;
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.DEV_IO_DONE, r.submitNanos());
    }
    return res;
  }

  /** One request's file I/O: FileBackend answers every error as a status. */
  static IoDevice.Result serve(FileBackend files, Request r) {
    if (r.carriesData() && r.op() == Op.WRITE) {
      return new IoDevice.Result(
          files.write(r.fileId(), r.offset(), ByteBuffer.wrap(r.data())), null);
    }
    if (r.carriesData() && r.op() == Op.READ) {
      ByteBuffer dst = ByteBuffer.allocate(r.length());
      Status st = files.read(r.fileId(), r.offset(), dst);
      return new IoDevice.Result(st, st == Status.OK ? dst.array() : null);
    }
    return new IoDevice.Result(files.serve(r.op(), r.fileId(), r.offset(), r.length()), null);
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
              queue.tell(
                  new FlowProtocol.Enqueue(
                      accept(
                          m.request(),
                          null,
                          m.request().replyTo(),
                          clock.nanoTime(),
                          Long.MAX_VALUE)));
              return this;
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
                offsets.keySet().retainAll(routers);
              }
              long now = clock.nanoTime();
              long deadline = deadline(m.batch(), reply, now);
              if (now - deadline >= 0) {
                for (Request r : m.batch().requests()) {
                  refuse(r, reply, now);
                }
                return this;
              }
              List<Request> local = new ArrayList<>(m.batch().requests().size());
              for (Request r : m.batch().requests()) {
                local.add(accept(r, reply, null, now, deadline));
              }
              // one message for the batch: the node's cost per request is mostly per message
              queue.tell(FlowProtocol.EnqueueAll.of(local));
              return this;
            })
        .onMessage(FromQueue.class, this::onFromQueue)
        .onMessage(CoreWork.class, this::onCoreWork)
        .onMessage(GetStats.class, this::onGetStats)
        .onMessage(QueueStatsFor.class, this::onQueueStats)
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

  /**
   * The local time after which the batch's requests must not start (Long.MAX_VALUE: no fence): its
   * sentNanos on this clock, by the smallest offset seen from its sender, plus its fence.
   */
  private long deadline(RequestBatch b, ActorRef<CompletionBatch> from, long now) {
    if (!b.fenced()) {
      return Long.MAX_VALUE;
    }
    try {
      long sample = Math.subtractExact(now, b.sentNanos());
      long offset = offsets.merge(from, sample, Math::min);
      // now - (sample - offset): the send time on this clock, <= now
      return Math.addExact(now - (sample - offset), b.fenceNanos());
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE; // a clock that far off says nothing about age
    }
  }

  /** Refused unstarted on arrival (its fence has passed): not done. */
  private void refuse(Request r, ActorRef<CompletionBatch> batchReply, long now) {
    metrics.event(EVENT_FENCED);
    answer(
        batchReply,
        null,
        new Completion(r.id(), Status.ENOTCONN, r.submitNanos(), now, now, index, null));
    metrics.completed(Status.ENOTCONN, 0);
  }

  /**
   * The request under a local id, for the model's queue (the caller sends it); its answer comes
   * back as Ended.
   */
  private Request accept(
      Request r,
      ActorRef<CompletionBatch> batchReply,
      ActorRef<Completion> reply,
      long now,
      long deadline) {
    if (drained != null) {
      // a router had not seen the withdrawal yet: serve it, and wait for quiet again
      settled = false;
      timers.startSingleTimer(Settled.INSTANCE, DRAIN_SETTLE);
    }
    long local = nextLocalId++;
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.DEV_ACCEPT, r.submitNanos());
    }
    pending.put(local, new Pending(r.id(), batchReply, reply, now));
    if (fence != null && deadline != Long.MAX_VALUE) {
      fence.set(local, deadline);
    }
    updateGauge();
    return r.relabelled(local, r.cpu(), null);
  }

  /**
   * The queue's core work, as {@link PassThroughCore} does it (zero cost, delivered at once): the
   * end of a request, addressed to this actor's adapter, is handled here; a harvest goes back to
   * the queue.
   */
  private Behavior<Command> onCoreWork(CoreWork w) {
    if (w.work() instanceof CoreProtocol.Exec<?> e) {
      if (e.to() == ends && e.message() instanceof FlowProtocol.RouterCommand m) {
        return onFromQueue(new FromQueue(m));
      }
      PassThroughCore.deliver(e);
    }
    return this; // hotplug and reports mean nothing to a pass-through core
  }

  private Behavior<Command> onFromQueue(FromQueue m) {
    if (m.message() instanceof FlowProtocol.Ended e) {
      complete(e.request(), e.completion());
    } else if (m.message() instanceof FlowProtocol.EndedAll all) {
      for (FlowProtocol.Ended e : all.ends()) {
        complete(e.request(), e.completion());
      }
    } else if (m.message() instanceof FlowProtocol.Reroute rr) {
      // only a hotplug evacuation hands requests back, and a node has no hotplug: not done
      complete(
          rr.request(),
          new Completion(
              rr.request().id(),
              Status.ENOTCONN,
              rr.request().submitNanos(),
              clock.nanoTime(),
              clock.nanoTime(),
              index));
    }
    return checkDrained();
  }

  private void complete(Request local, Completion c) {
    Pending p = pending.remove(local.id());
    if (p == null) {
      return;
    }
    if (fence != null) {
      fence.clear(local.id());
    }
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.DEV_ENDED, local.submitNanos());
    }
    byte[] data = c.data();
    if (data == null && local.carriesData() && local.op() == Op.READ && c.status() == Status.OK) {
      data = new byte[local.length()]; // the null device stores nothing: a read returns zeros
    }
    Completion out =
        new Completion(
            p.id(), c.status(), c.submitNanos(), c.dispatchNanos(), c.completeNanos(), index, data);
    answer(p.batchReply(), p.reply(), out);
    metrics.completed(c.status(), clock.nanoTime() - p.accepted());
    updateGauge();
  }

  /** A completion to its router: in its next batch, or on its own to a single request's sender. */
  private void answer(
      ActorRef<CompletionBatch> batchReply, ActorRef<Completion> reply, Completion out) {
    if (batchReply != null) {
      outbox.add(batchReply, out);
    } else if (reply != null) {
      wire.tell(reply, out);
    }
  }

  /**
   * In flight on this queue, split at the ring size: the queue itself holds the exact split (ask
   * {@link GetStats}).
   */
  private void updateGauge() {
    int n = pending.size();
    gauge.set(Math.min(n, ringSize), Math.max(0, n - ringSize));
  }

  private Behavior<Command> onFlush() {
    outbox.flush();
    return this;
  }

  private Behavior<Command> onGetStats(GetStats get) {
    statsWaiting.add(get.replyTo());
    queue.tell(new FlowProtocol.QueueReport(statsAdapter));
    return this;
  }

  private Behavior<Command> onQueueStats(QueueStatsFor m) {
    FlowProtocol.QueueStats q = m.stats();
    Stats out =
        new Stats(
            q.accepted(),
            q.completed(),
            q.onRing(),
            q.queued(),
            q.maxOccupancy(),
            q.overflowWaits(),
            q.delayedRetries(),
            q.enomem(),
            List.copyOf(q.violations()));
    statsWaiting.forEach(r -> r.tell(out));
    statsWaiting.clear();
    return this;
  }

  private Behavior<Command> onDrain(Drain d) {
    drained = d.replyTo();
    // Before deregistering: the routers then know that the queue's leaving the listing is a drain,
    // not a crash (which they answer with ENOTCONN at once). Same association as the registry's
    // gossip, so it comes first.
    QueueDraining announcement = new QueueDraining(endpoint, nodeUid());
    routers.removeIf(r -> !isMember(r));
    for (ActorRef<CompletionBatch> router : routers) {
      wire.tell(announcementsTo(router), announcement);
    }
    getContext().getSystem().receptionist().tell(Receptionist.deregister(QUEUES, endpoint));
    timers.startSingleTimer(Settled.INSTANCE, DRAIN_SETTLE);
    return this;
  }

  private long nodeUid() {
    if (!clusterSystem) {
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
    if (drained != null && settled && pending.isEmpty()) {
      drained.tell(Done.getInstance());
      drained = null;
    }
    return this;
  }
}
