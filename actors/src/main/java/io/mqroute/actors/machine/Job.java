package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.CpuCosts;
import io.mqroute.actors.cpu.FallbackCpu;
import io.mqroute.actors.cpu.WakeTargets;
import io.mqroute.actors.machine.JobProtocol.Arrival;
import io.mqroute.actors.machine.JobProtocol.Command;
import io.mqroute.actors.machine.JobProtocol.Completed;
import io.mqroute.actors.machine.JobProtocol.Hotplug;
import io.mqroute.actors.machine.JobProtocol.RampDone;
import io.mqroute.actors.machine.JobProtocol.RunEnd;
import io.mqroute.actors.machine.JobProtocol.StallCheck;
import io.mqroute.actors.machine.JobProtocol.Start;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.DirectionStats;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * One fio job clone: an application thread that keeps {@code iodepth} requests in flight (closed
 * loop) or issues at {@code rate_iops} (open loop, at most {@code iodepth} in flight), pays the
 * submit cost on the core it runs on, and records slat / clat / lat like fio. It checks that every
 * request ends exactly once.
 */
public final class Job extends AbstractBehavior<Command> {
  private final JobPlan plan;
  private final JobStats stats;
  private final NanoClock clock;
  private final TimerScheduler<Command> timers;
  private final RandomSource workload;
  private final RandomSource arrivals;
  private final List<ActorRef<CoreProtocol.Command>> cores;
  private final CoreProtocol.ToCore toCore;
  private final ActorRef<FlowProtocol.RouterCommand> router;
  private final ActorRef<MachineProtocol.Command> machine;
  private final ActorRef<Completion> completions;
  private final CpuCosts costs;
  private final long stallLimit;

  /** Real bytes for writes and reads (mqroute load's verify=), or null: the model moves none. */
  private final JobData data;

  /**
   * The scheduler's placement of this job's thread after a wake-up (task_cpu), or null: it stays
   * put.
   */
  private final WakeTargets wakeTargets;

  /** The offsets of reads and of writes, over the clone's files. */
  private final JobFiles readOffsets;

  private final JobFiles writeOffsets;
  private final BlockSizes readSizes;

  /**
   * The workload stream as a generator for block-size draws (made once: next() allocates nothing).
   */
  private final RandomGenerator sizeRandom;

  private final BlockSizes writeSizes;

  /** zonemode=zbd: the write pointers of the job's zones, null without zones. */
  private final Zones zones;

  private final long[] slots;

  /** When each outstanding request was submitted, by slot (the window's edges need it). */
  private final long[] slotSubmit;

  /** Per in-flight slot: the bytes of its request (bssplit and bsrange vary them). */
  private final int[] slotBytes;

  /** Per in-flight slot: whether its request reads (a completion does not repeat the op). */
  private final boolean[] slotRead;

  private final int[] freeSlots;
  private int freeCount;
  private int cpu;
  private boolean started;

  /**
   * The calls in flight when the job's I/Os are system calls (fio's falloc, ftruncate and
   * file-operation engines), null for reads and writes.
   */
  private final CallSlots calls;

  /** Sequence numbers of the requests of calls (a call sends several; seq counts fio's I/Os). */
  private long requestSeq;

  /**
   * fio I/Os in flight in their timed part: what Little's law's L counts (a call's close after a
   * create is not part of any I/O fio measures).
   */
  private int timedInFlight;

  /** The per-file engines: the next file to visit and how many passes over the files are done. */
  private int fileIndex;

  private int filePass;

  /** Online CPUs as last heard (null: all). */
  private boolean[] online;

  private int[] cpuToNode;
  private long seq;
  private long bytesIssued;

  /**
   * Open loop (rate_iops): per direction (read, write), when its next I/O is due; MIN_VALUE: no
   * cap.
   */
  private final long[] nextIo = new long[2];

  private final boolean rated;

  /** Waiting in fio's rate_ddir for {@code sleepDirection}'s next I/O to be due. */
  private boolean sleeping;

  private int sleepDirection;

  /**
   * In a thinktime pause: waiting for the in-flight I/O, spinning or sleeping; {@code quiesced}
   * once none is left.
   */
  private boolean thinking;

  private boolean quiesced;

  /** I/Os counted (issued or completed) at the last pause. */
  private long lastThink;

  private boolean stopping;

  /** verify_backlog: the writes waiting to be read back, null without it. */
  private final VerifyBacklog backlog;

  /** verify_backlog: per in-flight slot, the history entry of its write. */
  private final long[][] slotWrite;

  /** verify=: the writes are done, the read-back starts once they have completed. */
  private boolean verifyDue;

  private boolean verifying;
  private OffsetGenerator verifyOffsets;
  private long bytesWritten;
  private boolean reported;
  private boolean windowOpen;
  private boolean windowClosed;
  private long lastProgress;
  private long runStart;

  /** fio's flow (flow.c), null when the clone has none. */
  private final FioFlow flow;

  /** I/Os the flow has counted for this clone ({@code td->flow_counter}). */
  private long flowIssued;

  /** Held back by the flow: waiting for it to move (no flow_sleep). */
  private boolean flowHeld;

  /** Held back by the flow with flow_sleep: draining, then sleeping. */
  private boolean flowPaused;

  private boolean flowSleepStarted;

  /**
   * Little's law over the measurement window: ∫ outstanding dt while it is open, and the in-flight
   * time of the requests that cross its edges (see {@link LittlesLaw}); every request ended.
   */
  private long area;

  private long areaAt;
  private long windowStart;
  private long edgeBefore;
  private long edgeAfter;
  private double failedLatencySum;
  private long ended;

  /** FUSE requests ended (a call's every request; one per I/O for reads and writes). */
  private long requestsEnded;

  /**
   * The job's io-wq worker as a task of {@link #wakeTargets} ({@link IoUringPunt#IO_WQ}), or -1:
   * the job issues its requests itself.
   */
  private final int ioWqTask;

  /** io-wq's work list: punted requests the worker has not issued yet, oldest first. */
  private final ArrayDeque<Request> ioWqWork = new ArrayDeque<>();

  /**
   * The worker is awake, issuing a request; it takes the next from the work list without sleeping.
   */
  private boolean ioWqRunning;

  /**
   * @param data the bytes its requests carry, or null for none
   * @param flow the fio flow the clone belongs to ({@link JobControl#flows()}), null for none
   * @param ioWqTask the task of {@code wakeTargets} that is this job's io-wq worker, which issues
   *     its requests ({@link IoUringPunt#IO_WQ}); -1: the job issues them itself
   */
  public static Behavior<Command> create(
      JobPlan plan,
      JobStats stats,
      RandomSource workload,
      RandomSource arrivals,
      List<ActorRef<CoreProtocol.Command>> cores,
      ActorRef<FlowProtocol.RouterCommand> router,
      ActorRef<MachineProtocol.Command> machine,
      CpuCosts costs,
      long stallLimit,
      WakeTargets wakeTargets,
      JobData data,
      FioFlow flow,
      int ioWqTask) {
    return Behaviors.setup(
        ctx ->
            Behaviors.withTimers(
                t ->
                    new Job(
                        ctx,
                        t,
                        plan,
                        stats,
                        workload,
                        arrivals,
                        cores,
                        router,
                        machine,
                        costs,
                        stallLimit,
                        wakeTargets,
                        data,
                        flow,
                        ioWqTask)));
  }

  private Job(
      ActorContext<Command> ctx,
      TimerScheduler<Command> timers,
      JobPlan plan,
      JobStats stats,
      RandomSource workload,
      RandomSource arrivals,
      List<ActorRef<CoreProtocol.Command>> cores,
      ActorRef<FlowProtocol.RouterCommand> router,
      ActorRef<MachineProtocol.Command> machine,
      CpuCosts costs,
      long stallLimit,
      WakeTargets wakeTargets,
      JobData data,
      FioFlow flow,
      int ioWqTask) {
    super(ctx);
    if (ioWqTask >= 0 && (wakeTargets == null || ioWqTask >= wakeTargets.tasks())) {
      throw new IllegalArgumentException("an io-wq worker is a task of the machine's scheduler");
    }
    this.ioWqTask = ioWqTask;
    this.data = data;
    this.flow = flow;
    this.plan = plan;
    this.stats = stats;
    this.clock = NanoClock.of(ctx.getSystem());
    this.timers = timers;
    this.workload = workload;
    this.arrivals = arrivals;
    this.cores = cores;
    this.toCore = (c, e) -> cores.get(c).tell(e);
    this.router = router;
    this.machine = machine;
    this.completions = ctx.messageAdapter(Completion.class, Completed::new);
    this.costs = costs;
    this.stallLimit = stallLimit;
    this.wakeTargets = wakeTargets;
    this.sizeRandom = workload::nextLong;
    this.readSizes = plan.sizes(true);
    this.writeSizes = plan.sizes(false);
    this.zones =
        plan.pattern().zoneBytes() > 0
            ? new Zones(
                plan.offset(),
                plan.sizeBytes(),
                plan.pattern().zoneBytes(),
                plan.pattern().maxOpenZones())
            : null;
    this.readOffsets = offsets(plan, readSizes, workload);
    this.writeOffsets = offsets(plan, writeSizes, workload);
    this.slots = new long[plan.inFlight()];
    this.slotSubmit = new long[plan.inFlight()];
    this.slotBytes = new int[plan.inFlight()];
    this.slotRead = new boolean[plan.inFlight()];
    this.freeSlots = new int[plan.inFlight()];
    for (int i = 0; i < plan.inFlight(); i++) {
      freeSlots[i] = plan.inFlight() - 1 - i;
    }
    this.freeCount = plan.inFlight();
    this.cpu = plan.startCpu();
    this.rated = plan.rated();
    this.backlog =
        plan.pattern().verify() && plan.pattern().verifyBacklog() > 0
            ? new VerifyBacklog(plan.pattern().verifyBacklog(), plan.pattern().verifyBacklogBatch())
            : null;
    this.slotWrite = backlog != null ? new long[plan.inFlight()][] : null;
    this.calls = plan.calls() != IoCalls.DATA ? new CallSlots(plan.inFlight()) : null;
    if (calls != null && (data != null || backlog != null || zones != null)) {
      throw new IllegalArgumentException(
          plan.calls() + ": a job of system calls carries no data, verifies nothing, has no zones");
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return SwitchReceive.of(this::hot, builtReceive());
  }

  /** The request path's messages (see {@link SwitchReceive}); null for the rest. */
  private Behavior<Command> hot(Command m) {
    if (m instanceof Completed c) {
      return onCompleted(c);
    }
    if (m instanceof JobProtocol.Punted p) {
      return onPunted(p.request());
    }
    return m instanceof JobProtocol.IoWqIssued i ? onIoWqIssued(i.request()) : null;
  }

  private Receive<Command> builtReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, m -> plan.startDelayNanos() > 0 ? delayStart() : onStart())
        .onMessage(JobProtocol.StartDelayOver.class, m -> onStart())
        .onMessage(Arrival.class, m -> onArrival())
        .onMessage(JobProtocol.Think.class, this::onThink)
        .onMessage(RampDone.class, m -> onRampDone())
        .onMessage(RunEnd.class, m -> onRunEnd())
        .onMessage(StallCheck.class, m -> onStallCheck())
        .onMessage(Hotplug.class, this::onHotplug)
        .onMessage(JobProtocol.Terminate.class, m -> onTerminate())
        .onMessage(JobProtocol.FlowMoved.class, m -> onFlowMoved())
        .onMessage(JobProtocol.FlowSlept.class, m -> onFlowSlept())
        .onMessage(JobProtocol.SampleSteadyState.class, this::onSampleSteadyState)
        .build();
  }

  private Behavior<Command> onHotplug(Hotplug h) {
    online = h.online().clone();
    cpuToNode = h.cpuToNode();
    if (started) {
      fallBack();
    }
    return this;
  }

  /** The app thread leaves an offline CPU the way select_fallback_rq moves it. */
  private void fallBack() {
    if (online == null || online[cpu]) {
      return;
    }
    int c = FallbackCpu.of(cpu, online.length, x -> online[x], x -> cpuToNode[x], plan.cpus());
    if (c >= 0) {
      cpu = c;
      if (wakeTargets != null && plan.index() < wakeTargets.tasks()) {
        wakeTargets.moveTask(plan.index(), c); // task_cpu too: the next wake-up starts here
      }
    }
  }

  /** fio's startdelay: the job (and its runtime) begins this long after its group is started. */
  private Behavior<Command> delayStart() {
    timers.startSingleTimer(
        JobProtocol.StartDelayOver.INSTANCE, Duration.ofNanos(plan.startDelayNanos()));
    return this;
  }

  private Behavior<Command> onStart() {
    started = true;
    if (flow != null) {
      flow.join(plan.control().flowWeight());
    }
    fallBack();
    runStart = clock.nanoTime();
    areaAt = runStart;
    lastProgress = runStart;
    if (plan.rampNanos() > 0) {
      timers.startSingleTimer(RampDone.INSTANCE, Duration.ofNanos(plan.rampNanos()));
    } else {
      openWindow(runStart);
    }
    if (plan.runtimeNanos() > 0) {
      timers.startSingleTimer(
          RunEnd.INSTANCE, Duration.ofNanos(plan.rampNanos() + plan.runtimeNanos()));
    }
    timers.startTimerWithFixedDelay(StallCheck.INSTANCE, Duration.ofNanos(stallLimit));
    nextIo[0] = plan.rateReadIops() > 0 ? runStart : Long.MIN_VALUE;
    nextIo[1] = plan.rateWriteIops() > 0 ? runStart : Long.MIN_VALUE;
    return resume(); // the offsets may have run out at once (random_distribution=sequence)
  }

  /**
   * Issues while a slot is free; under rate_iops only what is due, else it sleeps until the next
   * is.
   */
  private void submit() {
    while (freeCount > 0 && !stopping && !sleeping && !thinking && !flowHeld && !flowPaused) {
      if (flow != null && !flow.mayIssue(flowIssued, plan.control().flowWeight())) {
        holdBack();
        return;
      }
      flowIssued += flow != null ? 1 : 0;
      if (backlog != null) {
        // check_get_verify comes before the regular I/O and is not rate-limited
        long[] v = verifying ? backlog.drain() : backlog.next();
        if (v != null) {
          send(true, (int) v[1], v[0], true);
          if (verifying && backlog.isEmpty()) {
            stopping = true; // every logged write has been read back
          }
          if (thinkDue()) {
            think();
          }
          continue;
        }
        if (verifying) {
          stopping = true;
          break;
        }
      }
      boolean read =
          verifying
              || plan.readFraction() >= 1.0
              || (plan.readFraction() > 0 && workload.nextDouble() < plan.readFraction());
      if (rated && !verifying) {
        int dir = rateDirection(read ? 0 : 1, clock.nanoTime());
        if (dir < 0) {
          return;
        }
        read = dir == 0;
      }
      issueThenMaybeThink(read);
    }
  }

  /**
   * fio checks after each I/O it queued (a synchronous one has completed by then) whether a pause
   * is due.
   */
  private void issueThenMaybeThink(boolean read) {
    issue(read);
    if (thinkDue()) {
      think();
    }
  }

  /**
   * Whether a thinktime pause is due: thinktime_blocks I/Os issued (or completed) since the last
   * one.
   */
  private boolean thinkDue() {
    return plan.think().enabled()
        && !thinking
        && (plan.think().onIssue() ? seq : ended) - lastThink >= plan.think().blocks();
  }

  /**
   * handle_thinktime: io_u_quiesce first (wait for everything in flight), then spin, then sleep.
   */
  private void think() {
    thinking = true;
    lastThink = plan.think().onIssue() ? seq : ended;
    if (freeCount == plan.inFlight()) {
      thinkQuiesced();
    }
  }

  private void thinkQuiesced() {
    if (stopping) { // fio clips the pause at the end of the run: nothing more to think about
      thinking = false;
      return;
    }
    quiesced = true;
    if (plan.think().spinNanos() > 0) {
      if (wakeTargets != null) {
        wakeTargets.workQueued(plan.index());
      }
      cores
          .get(cpu)
          .tell(
              new CoreProtocol.Exec<>(
                  plan.think().spinNanos(),
                  Work.THINK,
                  getContext().getSelf(),
                  (Command) JobProtocol.Think.SPUN));
    } else {
      onThink(JobProtocol.Think.SPUN);
    }
  }

  private Behavior<Command> onThink(JobProtocol.Think t) {
    if (t == JobProtocol.Think.SPUN) {
      if (plan.think().spinNanos() > 0 && wakeTargets != null) {
        wakeTargets.workDone(plan.index());
      }
      long sleep = plan.think().nanos() - plan.think().spinNanos();
      if (sleep > 0) {
        timers.startSingleTimer(JobProtocol.Think.SLEPT, Duration.ofNanos(sleep));
        return this;
      }
    }
    thinking = false;
    quiesced = false;
    return resume();
  }

  /**
   * flow_threshold_exceeded said no: with flow_sleep, io_u_quiesce and then sleep; without, wait
   * for the flow to move (fio spins and checks; the model reaps its completions meanwhile, as it
   * reaps every completion on its own, and does not charge the spin to the core).
   */
  private void holdBack() {
    if (plan.control().flowSleepNanos() > 0) {
      flowPaused = true;
      flowSleepStarted = false;
      if (freeCount == plan.inFlight()) {
        startFlowSleep();
      }
    } else {
      flowHeld = true;
      flow.hold(getContext().getSelf());
    }
  }

  private void startFlowSleep() {
    flowSleepStarted = true;
    timers.startSingleTimer(
        JobProtocol.FlowSlept.INSTANCE, Duration.ofNanos(plan.control().flowSleepNanos()));
  }

  private Behavior<Command> onFlowMoved() {
    if (flowHeld) {
      flowHeld = false;
      return resume();
    }
    return this;
  }

  private Behavior<Command> onFlowSlept() {
    flowPaused = false;
    return resume();
  }

  /** The counters steadystate_check reads: I/Os, bytes, completion latency sum and count. */
  private Behavior<Command> onSampleSteadyState(JobProtocol.SampleSteadyState m) {
    long ios = 0;
    long bytes = 0;
    double clatSum = 0;
    long clatCount = 0;
    for (Direction d : Direction.values()) {
      ios += stats.direction(d).totalIos();
      bytes += stats.direction(d).ioBytes();
      clatSum += stats.direction(d).clat().mean() * stats.direction(d).clat().count();
      clatCount += stats.direction(d).clat().count();
    }
    m.replyTo()
        .tell(
            new MachineProtocol.SteadyStateSampled(
                new SteadyState.Sample(plan.index(), ios, bytes, clatSum, clatCount)));
    return this;
  }

  /**
   * fio's td->terminate (exitall, a load client's lost storage): a running clone ends as at the end
   * of its runtime, with no verify phase; one not yet started reports at once.
   */
  private Behavior<Command> onTerminate() {
    if (reported) {
      return this;
    }
    verifyDue = false;
    if (!started) {
      reported = true;
      timers.cancelAll();
      closeWindow(clock.nanoTime());
      machine.tell(
          new MachineProtocol.JobDone(plan.index(), stats, new LittlesLaw(0, 0, 0, 0, 0, 0)));
      return this;
    }
    return onRunEnd();
  }

  /**
   * fio's rate_ddir (io_u.c): the rwmix choice if it is due; else the other direction if that is
   * due; else the thread sleeps until the earlier of the two and then issues that one. Returns -1
   * when it sleeps. Unlike fio (io_submit_mode=inline), the thread does not first wait for its
   * in-flight I/O (io_u_quiesce): arrivals stay an even or Poisson process at any iodepth, which
   * the queueing-theory checks need.
   */
  private int rateDirection(int dir, long now) {
    if (nextIo[dir] <= now) {
      return dir;
    }
    int other = 1 - dir;
    boolean otherMixed = other == 0 ? plan.readFraction() > 0 : plan.readFraction() < 1;
    if (otherMixed && nextIo[other] <= now) {
      return other;
    }
    int wake = otherMixed && nextIo[other] < nextIo[dir] ? other : dir;
    sleeping = true;
    sleepDirection = wake;
    timers.startSingleTimer(Arrival.INSTANCE, Duration.ofNanos(nextIo[wake] - now));
    return -1;
  }

  /** The rate sleep is over: issue the direction it waited for, then whatever else is due. */
  private Behavior<Command> onArrival() {
    sleeping = false;
    if (!stopping
        && freeCount > 0
        && !thinking) { // a pause that began meanwhile decides again when it ends
      issueThenMaybeThink(sleepDirection == 0);
      return resume();
    }
    return this;
  }

  /**
   * fio's usec_for_io: the next I/O in this direction is due one gap after the previous one was.
   */
  private void advanceRate(int dir) {
    double rate = dir == 0 ? plan.rateReadIops() : plan.rateWriteIops();
    if (rate <= 0) {
      return;
    }
    double mean = 1e9 / rate;
    long gap =
        plan.poisson() ? Math.max(1, Math.round(arrivals.nextExponential(mean))) : Math.round(mean);
    nextIo[dir] += gap;
  }

  private void issue(boolean read) {
    advanceRate(read ? 0 : 1);
    if (calls != null) {
      issueCall(read);
      return;
    }
    int bs = (read && !verifying ? readSizes : writeSizes).next(sizeRandom);
    long offset;
    if (verifying && data != null) {
      offset = data.nextVerifyOffset(); // what was acknowledged, as fio's io_piece log has it
    } else if (zones != null && !verifying && (!read || plan.random())) {
      offset = read ? zones.read(bs, sizeRandom) : zones.write(bs, sizeRandom, !plan.random());
    } else if (verifying) {
      offset = verifyOffsets.next(bs);
    } else {
      offset = (read ? readOffsets : writeOffsets).next(bs);
    }
    if (offset < 0) { // fio's get_next_offset failed: the job issues no more
      stopping = true;
      verifyDue = plan.pattern().verify() && bytesWritten > 0;
      return;
    }
    send(read, bs, offset, false);
  }

  /**
   * Sends one I/O; {@code readBack}: a verify_backlog read of a logged write, which is not part of
   * the job's size= (fio stops on the bytes the job itself writes).
   */
  private void send(boolean read, int bs, long offset, boolean readBack) {
    if (!read) {
      bytesWritten += bs;
    }
    long now = clock.nanoTime(); // one reading: Little's law must hold exactly in real time too
    int slot = takeSlot(now, read, bs);
    long s = seq++;
    slots[slot] = s + 1;
    long id = plan.requestId(s, slot);
    if (!readBack) {
      bytesIssued += bs;
    }
    if (backlog != null) {
      slotWrite[slot] = read ? null : backlog.logWrite(offset, bs);
    }
    stats.markDepth(plan.inFlight() - freeCount);
    Request r =
        new Request(
            id,
            read ? Op.READ : Op.WRITE,
            plan.fileId(),
            offset,
            bs,
            !plan.foreground(),
            cpu,
            now,
            completions,
            data != null,
            data != null ? data.issued(id, read, offset, bs) : null);
    submitOnCore(r);
    if (readBack) {
      // the backlog's own reads end nothing
    } else if (verifying) {
      if (data != null ? !data.hasMoreVerify() : bytesIssued >= bytesWritten) {
        stopping = true; // everything written has been read back
      }
    } else if (plan.runtimeNanos() == 0 || !plan.timeBased()) {
      if (bytesIssued >= plan.ioBytes()) {
        stopping = true; // size= (times loops=) reached: no more I/O (fio: io_size done)
        verifyDue = plan.pattern().verify() && bytesWritten > 0;
      }
    }
    stopIfMaxIos();
  }

  private void stopIfMaxIos() {
    if (plan.pattern().maxIos() > 0 && seq >= plan.pattern().maxIos()) {
      stopping = true; // number_ios= reached, time_based or not (fio's HOWTO)
    }
  }

  /** A free slot for an I/O submitted {@code now}: it is in flight and timed from here. */
  private int takeSlot(long now, boolean read, int bs) {
    accumulate(now);
    if (freeCount == plan.inFlight()) {
      // nothing was outstanding (a think or rate pause): the stall clock starts now
      lastProgress = now;
    }
    int slot = freeSlots[--freeCount];
    timedInFlight++;
    slotSubmit[slot] = now;
    slotRead[slot] = read;
    slotBytes[slot] = bs;
    return slot;
  }

  /** The application's submit work on the CPU the thread runs on, then the request is routed. */
  private void submitOnCore(Request r) {
    if (wakeTargets != null) {
      wakeTargets.workQueued(plan.index());
    }
    if (ioWqTask >= 0) {
      // io_uring_enter: io_read's nowait attempt fails (no FMODE_NOWAIT), io_queue_iowq
      cores
          .get(cpu)
          .tell(
              new CoreProtocol.Exec<>(
                  costs.submitNanos(),
                  Work.SUBMIT,
                  getContext().getSelf(),
                  (Command) new JobProtocol.Punted(r)));
      return;
    }
    cores
        .get(cpu)
        .tell(
            new CoreProtocol.Exec<>(
                costs.submitNanos(), Work.SUBMIT, router, new FlowProtocol.Route(r)));
  }

  /**
   * io_wq_enqueue: the request joins io-wq's work list; a sleeping worker is woken from the job's
   * CPU (io_wq_activate_free_worker → wake_up_process, placed as any woken task), one awake takes
   * it after the request it is issuing. The job's submit work is done.
   */
  private Behavior<Command> onPunted(Request r) {
    wakeTargets.workDone(plan.index());
    ioWqWork.addLast(r);
    if (!ioWqRunning) {
      ioWqRunning = true;
      int waker = r.cpu();
      int prev = wakeTargets.taskCpu(ioWqTask);
      int target = wakeTargets.wake(ioWqTask, prev, waker, false);
      long wake = target != waker ? costs.wakeNanos() : 0;
      issueOnIoWq(wake + (target != prev ? costs.migrateNanos() : 0), waker);
    }
    return this;
  }

  /**
   * The worker issues the oldest punted request on its CPU (io_worker_handle_work →
   * io_wq_submit_work → io_issue_sqe → io_read → fuse_direct_IO → fuse_simple_background): the FUSE
   * submit path, as {@code submit-cost}, after {@code wakeNanos} of its wake-up.
   *
   * @param waker the CPU of the thread that woke the worker (it pays the IPI when that is another
   *     CPU), or -1 for a worker that was awake
   */
  private void issueOnIoWq(long wakeNanos, int waker) {
    Request r = ioWqWork.pollFirst();
    wakeTargets.workQueued(ioWqTask);
    CoreProtocol.Exec<Command> issue =
        new CoreProtocol.Exec<>(
            wakeNanos + costs.submitNanos(),
            Work.IOWQ,
            getContext().getSelf(),
            (Command) new JobProtocol.IoWqIssued(r));
    CoreProtocol.wakeUp(
        waker, wakeTargets.taskCpu(ioWqTask), costs.ipiNanos(), issue, cores, toCore);
  }

  /**
   * The worker has sent the request (async_dio: fuse_direct_IO returns -EIOCBQUEUED, the reply
   * completes it to the job as task_work): it is queued from the worker's CPU (on
   * fuse-over-io-uring, fuse_uring_task_to_queue: qid = task_cpu of the worker). The worker takes
   * the next request, or sleeps.
   */
  private Behavior<Command> onIoWqIssued(Request r) {
    int wc = wakeTargets.taskCpu(ioWqTask);
    router.tell(new FlowProtocol.Issued(r.relabelled(r.id(), wc, r.replyTo())));
    if (!ioWqWork.isEmpty()) {
      issueOnIoWq(0, -1);
    } else {
      ioWqRunning = false;
    }
    wakeTargets.workDone(ioWqTask);
    return this;
  }

  private Behavior<Command> onCompleted(Completed m) {
    Completion c = m.completion();
    long id = c.id();
    int slot = JobPlan.slotOf(id);
    if (calls != null && JobPlan.jobOf(id) == plan.index()) {
      return onCallCompleted(c, slot);
    }
    if (JobPlan.jobOf(id) != plan.index()
        || slot >= slots.length
        || slots[slot] != JobPlan.seqOf(id) + 1) {
      return foreignCompletion(c);
    }
    long now = clock.nanoTime();
    accumulate(now);
    slots[slot] = 0;
    timedInFlight--;
    if (data != null) {
      data.ended(id, c);
      if (data.fatal()) {
        stopping = true; // verify_fatal: the job ends at the first mismatch
        verifyDue = false;
      }
    }
    freeSlots[freeCount++] = slot;
    lastProgress = now;
    long lat = now - c.submitNanos();
    ended++;
    requestsEnded++;
    measureEnd(slot, c.status() != Status.OK, lat);
    long slat =
        plan.foreground() ? JobStats.NO_SLAT : Math.max(0, c.dispatchNanos() - c.submitNanos());
    long clat = plan.foreground() ? lat : lat - slat;
    boolean read = slotRead[slot];
    if (backlog != null) {
      backlog.lastCompleted(read);
      if (slotWrite[slot] != null) {
        backlog.completed(slotWrite[slot]);
        slotWrite[slot] = null;
      }
    }
    stats.recordAt(
        read ? Direction.READ : Direction.WRITE,
        slotBytes[slot],
        slat,
        clat,
        c.status().errno(),
        now);
    reaped(c);
    return afterIoEnded();
  }

  /** The thread was woken for {@code c}'s end (or reaps it where it runs). */
  private void reaped(Completion c) {
    if (wakeTargets != null && c.queue() >= 0) {
      wakeTargets.workDone(plan.index()); // the reap the router handed to a core has run
      cpu = wakeTargets.taskCpu(plan.index()); // where the wake-up put it (select_idle_sibling)
      fallBack(); // it may have been left on a CPU that has gone offline
    }
  }

  /**
   * One I/O of an engine whose I/O is a system call: falloc and ftruncate at the I/O's offset; the
   * file-operation engines visit the job's next file (fio opens it and the engine's {@code
   * open_file} does the call), and the file's I/Os are fake ({@code FIO_FAKEIO}: fio counts them,
   * they send nothing), so all of them are counted when the call has been timed.
   */
  private void issueCall(boolean read) {
    int bs = (read ? readSizes : writeSizes).next(sizeRandom);
    if (!plan.calls().perFile()) {
      long offset = (read ? readOffsets : writeOffsets).next(bs);
      if (offset < 0) { // fio's get_next_offset failed: the job issues no more
        stopping = true;
        return;
      }
      startCall(read, plan.calls().call(false), offset, bs, 1);
      return;
    }
    int files = plan.pattern().files();
    long fileBytes = files > 1 ? plan.pattern().fileBytes() : plan.sizeBytes();
    long offset = plan.offset() + fileIndex * fileBytes;
    boolean again = filePass > 0; // created names exist, deleted ones are gone
    if (++fileIndex == files) {
      fileIndex = 0;
      filePass++;
    }
    // fio does whole blocks of the file's io_size (io_u_fits); the resolver keeps a block in each
    startCall(read, plan.calls().call(again), offset, bs, Math.max(1, fileBytes / bs));
  }

  private void startCall(boolean read, IoCalls.Call call, long offset, int bs, long ios) {
    long now = clock.nanoTime();
    int slot = takeSlot(now, read, bs);
    seq += ios; // fio's I/O count (number_ios, thinktime_blocks)
    calls.start(slot, call, offset, ios);
    bytesIssued += ios * bs;
    stats.markDepth(plan.inFlight() - freeCount);
    sendCallRequest(calls.op(slot), slot, false, now);
    if (!plan.timeBased()) {
      boolean sizeDone =
          plan.calls().perFile() && plan.pattern().ioLimitBytes() == 0
              ? fileIndex == 0 && filePass >= plan.loops() // every file, loops= times
              : bytesIssued >= plan.ioBytes();
      if (sizeDone) {
        stopping = true;
      }
    }
    stopIfMaxIos();
  }

  /**
   * Sends one request of a call from the job's CPU: a waited one in {@code slot}, or one in the
   * background that no slot waits for. Each is its own fuse_simple_request (or
   * fuse_simple_background), so each pays the submit work. No data: length 0 (a fallocate's range
   * and a truncate's size are arguments, not a payload).
   */
  private void sendCallRequest(Op op, int slot, boolean background, long now) {
    long s = requestSeq++;
    long id = plan.requestId(s, background ? CallSlots.BACKGROUND : slot);
    if (background) {
      calls.sentInBackground(s);
    } else {
      slots[slot] = s + 1;
    }
    Request r =
        new Request(
            id, op, plan.fileId(), calls.offset(slot), 0, background, cpu, now, completions);
    submitOnCore(r);
  }

  /**
   * A request of a call ended. The thread was woken for it (or reaps it where it runs) and sends
   * the call's next request; once the timed requests have ended, the I/O is measured as fio
   * measures it; after the waited ones, the call's background requests go out and the slot is free.
   * A failed request ends its call there (the system call returns the error); a call whose name is
   * missing or taken on a later pass fails with ENOENT or EEXIST, which ends the job as fio's
   * td_verror does.
   */
  private Behavior<Command> onCallCompleted(Completion c, int slot) {
    long seqOfId = JobPlan.seqOf(c.id());
    long now = clock.nanoTime();
    if (slot == CallSlots.BACKGROUND) {
      // fuse_release_end runs where the request ended: nobody waits, nothing is measured
      if (!calls.backgroundEnded(seqOfId)) {
        return foreignCompletion(c);
      }
      requestsEnded++;
      lastProgress = now;
      finishIfDone();
      return this;
    }
    if (slot >= slots.length || slots[slot] != seqOfId + 1) {
      return foreignCompletion(c);
    }
    accumulate(now);
    slots[slot] = 0;
    requestsEnded++;
    lastProgress = now;
    reaped(c);
    IoCalls.Call call = calls.call(slot);
    boolean wasTimed = calls.timed(slot);
    boolean timedDone = calls.advance(slot);
    boolean failed = c.status() != Status.OK;
    if (wasTimed && (timedDone || failed)) {
      int status = failed ? c.status().errno() : call.errno();
      measureCall(slot, status, now);
      if (status != 0) {
        calls.end(slot);
        freeSlots[freeCount++] = slot;
        if (call.errno() != 0) {
          stopping = true; // fio's td_verror: the job ends with the error
          verifyDue = false;
        }
        return afterIoEnded();
      }
    }
    if (calls.moreWaited(slot)) {
      sendCallRequest(calls.op(slot), slot, false, now);
      return this;
    }
    for (Op op : call.background()) {
      sendCallRequest(op, slot, true, now);
    }
    calls.end(slot);
    freeSlots[freeCount++] = slot;
    return afterIoEnded();
  }

  /**
   * The timed part of the call in {@code slot} is over: one fio I/O ended. falloc and ftruncate
   * report it as any synchronous I/O; the file-operation engines as fio's fileoperations.c does:
   * the call's time as a completion latency of the job's direction (reads unless it only writes),
   * then the file's fake I/Os.
   */
  private void measureCall(int slot, int status, long now) {
    timedInFlight--;
    ended++;
    long lat = now - slotSubmit[slot];
    measureEnd(slot, status != 0, lat);
    Direction d = plan.trims() ? Direction.TRIM : slotRead[slot] ? Direction.READ : Direction.WRITE;
    if (!plan.calls().perFile()) {
      stats.recordAt(d, slotBytes[slot], JobStats.NO_SLAT, lat, status, now);
      return;
    }
    stats.recordCall(d, lat, status, now);
    if (status == 0) {
      long ios = calls.ios(slot);
      stats.recordFakeIos(d, ios, ios * slotBytes[slot], now);
    }
  }

  /** What follows the end of an I/O (a read, a write or a call): pauses, the flow, the next I/O. */
  private Behavior<Command> afterIoEnded() {
    if (thinking && !quiesced && freeCount == plan.inFlight()) {
      thinkQuiesced();
    } else if (thinkDue() && !stopping) {
      think();
    }
    if (flowPaused && !flowSleepStarted && freeCount == plan.inFlight()) {
      startFlowSleep();
    }
    return resume();
  }

  /** Issue what may go now, then end the job if nothing more will. */
  private Behavior<Command> resume() {
    submit();
    finishIfDone();
    return this;
  }

  private Behavior<Command> foreignCompletion(Completion c) {
    machine.tell(
        new MachineProtocol.Violation(
            "job "
                + plan.name()
                + "["
                + plan.index()
                + "]: completion for request "
                + c.id()
                + " that is not outstanding (duplicate or foreign)"));
    return this;
  }

  private static JobFiles offsets(JobPlan plan, BlockSizes sizes, RandomSource rnd) {
    RandomGenerator r = rnd::nextLong;
    return JobFiles.of(
        plan.offset(),
        plan.sizeBytes(),
        sizes,
        plan.pattern(),
        plan.random() ? r : null,
        r,
        plan.timeBased() || plan.loops() > 1);
  }

  /** Little's law's share of an I/O in {@code slot} that ended after {@code lat}. */
  private void measureEnd(int slot, boolean failed, long lat) {
    if (measuring()) {
      if (slotSubmit[slot] < windowStart) {
        edgeBefore += windowStart - slotSubmit[slot]; // its wait before the window is in W only
      }
      if (failed) {
        failedLatencySum += lat; // the report counts a failed request but keeps no latency for it
      }
    }
  }

  /** The measurement window is open (fio records what completes now). */
  private boolean measuring() {
    return windowOpen && !windowClosed;
  }

  private void accumulate(long now) {
    if (measuring()) {
      area += (long) timedInFlight * (now - areaAt);
    }
    areaAt = now;
  }

  private Behavior<Command> onRampDone() {
    openWindow(clock.nanoTime());
    return this;
  }

  private void openWindow(long now) {
    accumulate(now);
    windowOpen = true;
    windowStart = now;
    stats.openWindow(now);
  }

  private void closeWindow(long now) {
    if (!windowOpen) {
      openWindow(now); // the run ended during ramp: an empty window
    }
    if (!windowClosed) {
      accumulate(now);
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] != 0 && (calls == null || calls.timed(i))) {
          // still in flight: its time in the window is in L only
          edgeAfter += now - Math.max(slotSubmit[i], windowStart);
        }
      }
      windowClosed = true;
      stats.closeWindow(now);
    }
  }

  /** runtime= has passed: stop issuing, stop measuring (fio reaps what is still in flight). */
  private Behavior<Command> onRunEnd() {
    stopping = true;
    verifyDue = false;
    closeWindow(clock.nanoTime());
    finishIfDone();
    return this;
  }

  private Behavior<Command> onStallCheck() {
    long now = clock.nanoTime();
    boolean outstanding = freeCount < plan.inFlight() || (calls != null && !calls.backgroundIdle());
    if (!reported && outstanding && now - lastProgress >= stallLimit) {
      reported = true;
      List<Long> stuck = new ArrayList<>();
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] != 0) {
          stuck.add(plan.requestId(slots[i] - 1, i));
        }
      }
      if (calls != null) {
        for (long s : calls.outstandingBackground()) {
          stuck.add(plan.requestId(s, CallSlots.BACKGROUND));
        }
      }
      stopping = true;
      closeWindow(now); // the run ends here: the measurements so far are the job's result
      machine.tell(new MachineProtocol.Stalled(plan.index(), lastProgress, stuck));
    }
    return this;
  }

  /** The window's two sides, the report's from the job's statistics (fio's ios and lat means). */
  private LittlesLaw littlesLaw() {
    long requests = 0;
    double latencySum = failedLatencySum;
    for (Direction d : Direction.values()) {
      DirectionStats ds = stats.direction(d);
      if (plan.calls().perFile()) { // fio reports these calls as completion latencies only
        requests += ds.clat().count() + ds.errors();
        latencySum += ds.clat().count() * ds.clat().mean();
      } else {
        requests += ds.totalIos() + ds.errors();
        latencySum += ds.totalIos() * ds.lat().mean();
      }
    }
    return new LittlesLaw(
        requestsEnded,
        stats.windowEndNs() - stats.windowStartNs(),
        area,
        requests,
        latencySum,
        edgeAfter - edgeBefore);
  }

  private void finishIfDone() {
    if (verifyDue && backlog != null && backlog.isEmpty()) {
      verifyDue = false; // the backlog has read back every write already
    }
    if (verifyDue && stopping && freeCount == plan.inFlight() && !reported && !windowClosed) {
      // fio's do_verify: after the writes have completed, read back what was written
      verifyDue = false;
      if (data != null && !data.hasMoreVerify()) {
        finishIfDone(); // no write was acknowledged: nothing to read back
        return;
      }
      verifying = true;
      stopping = false;
      bytesIssued = 0;
      verifyOffsets = OffsetGenerator.sequential(plan.offset(), plan.sizeBytes(), writeSizes.min());
      submit();
      return;
    }
    if (stopping
        && freeCount == plan.inFlight()
        && (calls == null || calls.backgroundIdle())
        && !reported) {
      reported = true;
      timers.cancelAll();
      if (flow != null && started) {
        flow.leave(flowIssued, plan.control().flowWeight());
      }
      closeWindow(clock.nanoTime());
      machine.tell(new MachineProtocol.JobDone(plan.index(), stats, littlesLaw()));
    }
  }
}
