package io.mqroute.cluster.load;

import io.mqroute.cluster.load.LoadJobProtocol.Command;
import io.mqroute.cluster.load.LoadJobProtocol.Completed;
import io.mqroute.cluster.load.LoadJobProtocol.CompletedBatch;
import io.mqroute.cluster.load.LoadJobProtocol.Finished;
import io.mqroute.cluster.load.LoadJobProtocol.Run;
import io.mqroute.cluster.load.LoadJobProtocol.Stop;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import io.mqroute.workload.JobSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One clone of an fio job, run in real time against a host router over the cluster: keeps {@code
 * iodepth} requests in flight (1 for synchronous engines), picks reads or writes by {@code
 * rwmixread} and offsets sequentially or at random in the job's region of its own file (the file id
 * is the clone's pid), and records every completion in a {@link JobStats} as fio would. What it
 * issues while handling one message goes to the router as one {@link RequestBatch}, and the router
 * answers with {@link CompletionBatch}es: one network message per batch instead of per request each
 * way.
 *
 * <p>It stops issuing after {@code size} bytes ({@code loops} times), or at {@code runtime} (always
 * for {@code time_based}), then waits for what is in flight. Every request ends once: with the
 * router's completion, with ENOTCONN when the router's node goes away ({@link Terminated}), or, if
 * neither arrives within {@code drainTimeout} of the end, with ENOTCONN counted as abandoned.
 * {@code ramp_time}: requests run but are not measured for that long, and {@code runtime} counts
 * from its end, as in fio. Not done (and refused by {@code mqroute load}): {@code rate_iops},
 * {@code fsync}, {@code startdelay}, {@code nrfiles > 1}.
 */
public final class LoadJob extends AbstractBehavior<LoadJobProtocol.Command> {

  /**
   * @param job the fio job
   * @param pid the clone's pid (global clone index + 1): its file id and random seed
   * @param stats where completions are recorded
   * @param router a host router's client endpoint
   * @param baseNanos the run's time zero on {@link NanoClock#SYSTEM}
   * @param drainTimeout how long to wait for in-flight requests after the job stopped issuing
   */
  public record Settings(
      JobSpec job,
      int pid,
      JobStats stats,
      ActorRef<Request> router,
      long baseNanos,
      Duration drainTimeout) {
    public Settings {
      Objects.requireNonNull(job, "job");
      Objects.requireNonNull(stats, "stats");
      Objects.requireNonNull(router, "router");
    }
  }

  private record Issued(Direction direction, int bytes) {}

  private final Settings s;
  private final TimerScheduler<Command> timers;
  private final ActorRef<CompletionBatch> batchSelf;
  // issued while handling the current message, sent at its end (send)
  private final ArrayList<Request> out = new ArrayList<>();
  private final NanoClock clock = NanoClock.SYSTEM;
  private final SplittableRandom random;
  private final long blocks;
  private final long budget;
  private final Map<Long, Issued> inFlight = new HashMap<>();
  private final Map<Status, Long> byStatus = new EnumMap<>(Status.class);
  private ActorRef<Finished> replyTo;
  private long issued;
  private long nextSeqBlock;
  private long abandoned;
  private boolean stopped;

  public static Behavior<Command> create(Settings settings) {
    return Behaviors.setup(ctx -> Behaviors.withTimers(t -> new LoadJob(ctx, t, settings)));
  }

  private LoadJob(ActorContext<Command> ctx, TimerScheduler<Command> timers, Settings s) {
    super(ctx);
    this.s = s;
    this.timers = timers;
    // single completions too (same ref): whatever answers a batch one completion at a time is
    // understood
    ctx.messageAdapter(Completion.class, Completed::new);
    this.batchSelf = ctx.messageAdapter(CompletionBatch.class, CompletedBatch::new);
    this.random = new SplittableRandom(0x6d71726f75746500L ^ s.pid());
    JobSpec j = s.job();
    long bs = Math.max(1, Math.max(j.blockSizeRead(), j.blockSizeWrite()));
    this.blocks = Math.max(1, j.ioRegionBytes() / bs);
    // time_based runs until runtime; otherwise size (per loop) bytes, capped by runtime when one is
    // set
    this.budget = j.timeBased() ? Long.MAX_VALUE : blocks * Math.max(1, j.loops());
    ctx.watch(s.router());
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Run.class, this::onRun)
        .onMessage(
            Completed.class,
            c -> {
              onCompleted(c.completion());
              send();
              return finishIfDone();
            })
        .onMessage(
            CompletedBatch.class,
            b -> {
              for (Completion c : b.batch().completions()) {
                onCompleted(c);
              }
              send();
              return finishIfDone();
            })
        .onMessageEquals(Stop.ISSUE, this::onStopIssuing)
        .onMessageEquals(Stop.DRAIN, this::onDrainTimeout)
        .onMessageEquals(
            Stop.RAMP_DONE,
            () -> {
              s.stats().openWindow(now());
              return this;
            })
        .onSignal(Terminated.class, t -> onRouterGone())
        .build();
  }

  private Behavior<Command> onRun(Run run) {
    replyTo = run.replyTo();
    long ramp = s.job().rampTimeNs();
    if (ramp > 0) {
      timers.startSingleTimer(Stop.RAMP_DONE, Duration.ofNanos(ramp));
    } else {
      s.stats().openWindow(now());
    }
    if (s.job().runtimeNs() > 0) {
      timers.startSingleTimer(Stop.ISSUE, Duration.ofNanos(ramp + s.job().runtimeNs()));
    }
    for (int i = 0; i < s.job().inFlight() && canIssue(); i++) {
      issue();
    }
    send();
    return finishIfDone();
  }

  private boolean canIssue() {
    return !stopped && issued < budget;
  }

  private void issue() {
    JobSpec j = s.job();
    boolean read = random.nextDouble() < j.readFraction();
    Direction d = read ? Direction.READ : Direction.WRITE;
    int bytes = (int) j.blockSize(d);
    long block = j.isRandom() ? random.nextLong(blocks) : nextSeqBlock++ % blocks;
    long id = issued++;
    inFlight.put(id, new Issued(d, bytes));
    s.stats().markDepth(inFlight.size());
    out.add(
        new Request(
            id,
            read ? Op.READ : Op.WRITE,
            s.pid(),
            j.offset() + block * bytes,
            bytes,
            !j.isForeground(),
            s.pid(),
            clock.nanoTime(),
            null));
  }

  /**
   * The router's entry adapts {@link RequestBatch} too (see {@link io.mqroute.cluster.HostRouter}).
   */
  @SuppressWarnings("unchecked")
  private void send() {
    if (out.isEmpty()) {
      return;
    }
    ActorRef<RequestBatch> router = (ActorRef<RequestBatch>) (ActorRef<?>) s.router();
    for (int from = 0; from < out.size(); from += RequestBatch.MAX_SIZE) {
      router.tell(
          new RequestBatch(
              out.subList(from, Math.min(out.size(), from + RequestBatch.MAX_SIZE)), batchSelf));
    }
    out.clear();
  }

  private void onCompleted(Completion done) {
    Issued i = inFlight.remove(done.id());
    if (i == null) {
      return; // ended already (router gone or abandoned)
    }
    record(i, done.status(), clock.nanoTime() - done.submitNanos());
    if (canIssue()) {
      issue();
    }
  }

  private void record(Issued i, Status status, long latencyNanos) {
    byStatus.merge(status, 1L, Long::sum);
    s.stats()
        .record(
            i.direction(), i.bytes(), JobStats.NO_SLAT, Math.max(0, latencyNanos), status.errno());
  }

  private Behavior<Command> onStopIssuing() {
    stopped = true;
    return finishIfDone();
  }

  private Behavior<Command> onRouterGone() {
    getContext()
        .getLog()
        .warn(
            "job {} (pid {}): the host router went away; {} requests in flight end with ENOTCONN",
            s.job().name(),
            s.pid(),
            inFlight.size());
    endAll(Status.ENOTCONN);
    stopped = true;
    return finishIfDone();
  }

  private Behavior<Command> onDrainTimeout() {
    abandoned += inFlight.size();
    getContext()
        .getLog()
        .warn(
            "job {} (pid {}): {} requests unanswered {} after the end: counted as ENOTCONN",
            s.job().name(),
            s.pid(),
            inFlight.size(),
            s.drainTimeout());
    endAll(Status.ENOTCONN);
    return finishIfDone();
  }

  /**
   * Ends what is in flight; as errors they count only in the error totals (fio records no latency
   * for them).
   */
  private void endAll(Status status) {
    for (Issued i : inFlight.values()) {
      record(i, status, 0);
    }
    inFlight.clear();
  }

  private Behavior<Command> finishIfDone() {
    if (replyTo == null) {
      return this;
    }
    if (!canIssue() && inFlight.isEmpty()) {
      if (timers.isTimerActive(Stop.RAMP_DONE)) {
        // the job ended within its ramp time: an empty window, as fio reports it
        timers.cancel(Stop.RAMP_DONE);
        s.stats().openWindow(now());
      }
      s.stats().closeWindow(Math.max(now(), s.stats().windowStartNs()));
      replyTo.tell(new Finished(s.stats(), Map.copyOf(byStatus), abandoned));
      return Behaviors.stopped();
    }
    if (!canIssue() && !timers.isTimerActive(Stop.DRAIN)) {
      stopped = true;
      timers.cancel(Stop.ISSUE);
      timers.startSingleTimer(Stop.DRAIN, s.drainTimeout());
    }
    return this;
  }

  private long now() {
    return clock.nanoTime() - s.baseNanos();
  }
}
