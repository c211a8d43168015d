package io.mqroute.cluster.load;

import io.mqroute.cluster.load.LoadJobProtocol.Command;
import io.mqroute.cluster.load.LoadJobProtocol.Completed;
import io.mqroute.cluster.load.LoadJobProtocol.CompletedBatch;
import io.mqroute.cluster.load.LoadJobProtocol.Finished;
import io.mqroute.cluster.load.LoadJobProtocol.Run;
import io.mqroute.cluster.load.LoadJobProtocol.Stop;
import io.mqroute.cluster.load.LoadJobProtocol.VerifyReport;
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
import java.util.List;
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

  /**
   * A request in flight; with verification, its block, and the write it carries (a write) or must
   * return (a read; 0 when nothing is known).
   */
  private record Issued(Direction direction, int bytes, long offset, int block, long generation) {
    Issued(Direction direction, int bytes) {
      this(direction, bytes, 0, -1, 0);
    }
  }

  /** The job's phases: fio writes, then (do_verify) reads back what it wrote. */
  private enum Phase {
    MAIN,
    VERIFY
  }

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

  // verify= (null when off): the block contents and what this clone has written
  private final BlockVerifier verifier;
  private final WrittenBlocks written;
  private Phase phase = Phase.MAIN;
  private int verifyCursor;
  private long verified;
  private long verifyErrors;
  private final List<String> firstVerifyErrors = new ArrayList<>();
  private boolean fatalStop;

  /**
   * Why {@code j}'s {@code verify=} cannot run in a load job, or null (also when it is off): the
   * load command refuses those with the job file's line.
   */
  public static String verifyProblem(JobSpec j) {
    if (!j.verify().enabled()) {
      return null;
    }
    String v = "verify=" + j.verify().kind().fioName();
    if (!j.rw().writes()) {
      return v
          + " with rw="
          + j.rw().fioName()
          + " (mqroute load checks what the same job wrote: use a writing rw=)";
    }
    if (j.blockSizeRead() != j.blockSizeWrite()) {
      return v + " with different read and write block sizes (one bs= for both)";
    }
    long bs = j.blockSizeWrite();
    if (bs < BlockVerifier.minBlockBytes(j.verify().kind()) || bs > Request.MAX_DATA) {
      return v
          + " with bs="
          + bs
          + " (verified blocks are "
          + BlockVerifier.minBlockBytes(j.verify().kind())
          + " to "
          + Request.MAX_DATA
          + " bytes: each travels in one wire message)";
    }
    if (j.ioRegionBytes() / bs > WrittenBlocks.MAX_BLOCKS) {
      return v
          + " over "
          + j.ioRegionBytes() / bs
          + " blocks (a verifying clone tracks at most "
          + WrittenBlocks.MAX_BLOCKS
          + ": lower size=)";
    }
    return null;
  }

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
    if (j.verify().enabled()) {
      // mqroute load refuses what these would reject (LoadCommand), with the file and line
      this.verifier = new BlockVerifier(j.verify().kind(), s.pid(), s.pid(), (int) bs);
      this.written = new WrittenBlocks(blocks);
    } else {
      this.verifier = null;
      this.written = null;
    }
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
    fill();
    send();
    return finishIfDone();
  }

  private boolean canIssue() {
    if (phase == Phase.VERIFY) {
      return !fatalStop && written.nextAcked(verifyCursor) >= 0;
    }
    return !stopped && issued < budget;
  }

  /** Issues up to the job's depth, as long as it may (a verifying job also needs a free block). */
  private void fill() {
    while (inFlight.size() < s.job().inFlight() && canIssue() && issue()) {}
  }

  /** Issues one request; false when every block has a request in flight (verification only). */
  private boolean issue() {
    JobSpec j = s.job();
    if (phase == Phase.VERIFY) {
      int block = written.nextAcked(verifyCursor);
      verifyCursor = block + 1;
      if (written.free(block) != block) {
        return true; // in flight already? not in this phase: nothing else runs; skip it
      }
      return issueOn(Direction.READ, block);
    }
    boolean read = random.nextDouble() < j.readFraction();
    Direction d = read ? Direction.READ : Direction.WRITE;
    long block = j.isRandom() ? random.nextLong(blocks) : nextSeqBlock++ % blocks;
    if (written != null) {
      int free = written.free((int) block);
      if (free < 0) {
        if (!j.isRandom()) {
          nextSeqBlock--;
        }
        return false;
      }
      block = free;
    }
    return issueOn(d, block);
  }

  private boolean issueOn(Direction d, long block) {
    JobSpec j = s.job();
    int bytes = (int) j.blockSize(d);
    long offset = j.offset() + block * bytes;
    long id = issued++;
    byte[] data = null;
    Issued what;
    if (written == null) {
      what = new Issued(d, bytes);
    } else if (d == Direction.WRITE) {
      long generation = written.startWrite((int) block);
      data = verifier.block(offset, generation);
      what = new Issued(d, bytes, offset, (int) block, generation);
    } else {
      what = new Issued(d, bytes, offset, (int) block, written.startRead((int) block));
    }
    inFlight.put(id, what);
    s.stats().markDepth(inFlight.size());
    out.add(
        new Request(
            id,
            d == Direction.READ ? Op.READ : Op.WRITE,
            s.pid(),
            offset,
            bytes,
            !j.isForeground(),
            s.pid(),
            clock.nanoTime(),
            null,
            written != null,
            data));
    return true;
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
    RequestBatch.split(out, batchSelf).forEach(router::tell);
    out.clear();
  }

  private void onCompleted(Completion done) {
    Issued i = inFlight.remove(done.id());
    if (i == null) {
      return; // ended already (router gone or abandoned)
    }
    record(i, done.status(), clock.nanoTime() - done.submitNanos());
    if (written != null) {
      verifyEnded(i, done);
    }
    fill();
  }

  /** A verifying job's request has ended: note the write, or check what the read returned. */
  private void verifyEnded(Issued i, Completion done) {
    if (i.direction() == Direction.WRITE) {
      written.writeEnded(i.block(), i.generation(), done.status().isOk());
      return;
    }
    written.readEnded(i.block());
    if (!done.status().isOk() || i.generation() <= 0) {
      return; // nothing to compare: an error is counted as one, an unwritten block is not checked
    }
    verified++;
    String problem = verifier.check(done.data(), i.offset(), i.generation());
    if (problem == null) {
      return;
    }
    verifyErrors++;
    if (firstVerifyErrors.size() < 10) {
      firstVerifyErrors.add(s.job().name() + " (pid " + s.pid() + "): " + problem);
    }
    if (s.job().verify().fatal()) {
      fatalStop = true; // verify_fatal: the job stops at the first mismatch
      stopped = true;
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
    fatalStop = true; // no verify phase without a router
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
    if (phase == Phase.MAIN
        && !canIssue()
        && inFlight.isEmpty()
        && written != null
        && s.job().verify().doVerify()
        && !fatalStop
        && written.ackedCount() > 0) {
      // do_verify: every write has ended; read back each block whose write was acknowledged
      phase = Phase.VERIFY;
      timers.cancel(Stop.DRAIN);
      timers.cancel(Stop.ISSUE);
      fill();
      send();
    }
    if (!canIssue() && inFlight.isEmpty()) {
      if (timers.isTimerActive(Stop.RAMP_DONE)) {
        // the job ended within its ramp time: an empty window, as fio reports it
        timers.cancel(Stop.RAMP_DONE);
        s.stats().openWindow(now());
      }
      s.stats().closeWindow(Math.max(now(), s.stats().windowStartNs()));
      replyTo.tell(
          new Finished(
              s.stats(),
              Map.copyOf(byStatus),
              abandoned,
              new VerifyReport(verified, verifyErrors, List.copyOf(firstVerifyErrors))));
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
