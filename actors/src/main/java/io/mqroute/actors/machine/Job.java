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

  /** Per in-flight slot: seq + 1 of the request holding it, 0 when free. */
  private final OffsetGenerator readOffsets;

  private final OffsetGenerator writeOffsets;
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
      WakeTargets wakeTargets) {
    return create(
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
        null);
  }

  /**
   * A job whose requests carry real bytes ({@code data}); the rest as {@link #create(JobPlan,
   * JobStats, RandomSource, RandomSource, List, ActorRef, ActorRef, CpuCosts, long, WakeTargets)}.
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
      JobData data) {
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
                        data)));
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
      JobData data) {
    super(ctx);
    this.data = data;
    this.plan = plan;
    this.stats = stats;
    this.clock = NanoClock.of(ctx.getSystem());
    this.timers = timers;
    this.workload = workload;
    this.arrivals = arrivals;
    this.cores = cores;
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
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Start.class, m -> plan.startDelayNanos() > 0 ? delayStart() : onStart())
        .onMessage(JobProtocol.StartDelayOver.class, m -> onStart())
        .onMessage(Completed.class, this::onCompleted)
        .onMessage(Arrival.class, m -> onArrival())
        .onMessage(JobProtocol.Think.class, this::onThink)
        .onMessage(RampDone.class, m -> onRampDone())
        .onMessage(RunEnd.class, m -> onRunEnd())
        .onMessage(
            JobProtocol.Terminate.class,
            m -> {
              verifyDue = false; // nothing to verify against once the storage is gone
              return onRunEnd();
            })
        .onMessage(StallCheck.class, m -> onStallCheck())
        .onMessage(Hotplug.class, this::onHotplug)
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
        wakeTargets.moveTask(
            plan.index(), c); // task_cpu moves too: the next wake-up starts from here
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
    submit();
    return this;
  }

  /**
   * Issues while a slot is free; under rate_iops only what is due, else it sleeps until the next
   * is.
   */
  private void submit() {
    while (freeCount > 0 && !stopping && !sleeping && !thinking) {
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
    submit();
    finishIfDone();
    return this;
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
      submit();
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
    int bs = (read && !verifying ? readSizes : writeSizes).next(sizeRandom);
    long offset;
    if (verifying && data != null) {
      offset = data.nextVerifyOffset(); // what was acknowledged, as fio's io_piece log has it
    } else if (zones != null && !verifying && (!read || plan.random())) {
      offset = read ? zones.read(bs, sizeRandom) : zones.write(bs, sizeRandom, !plan.random());
    } else {
      offset = (verifying ? verifyOffsets : read ? readOffsets : writeOffsets).next(bs);
    }
    if (!read) {
      bytesWritten += bs;
    }
    long now = clock.nanoTime(); // one reading: Little's law must hold exactly in real time too
    accumulate(now);
    if (freeCount == plan.inFlight()) {
      lastProgress =
          now; // nothing was outstanding (a think or rate pause): the stall clock starts now
    }
    int slot = freeSlots[--freeCount];
    long s = seq++;
    slots[slot] = s + 1;
    slotSubmit[slot] = now;
    slotRead[slot] = read;
    slotBytes[slot] = bs;
    long id = plan.requestId(s, slot);
    bytesIssued += bs;
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
    if (wakeTargets != null) {
      wakeTargets.workQueued(plan.index());
    }
    cores
        .get(cpu)
        .tell(
            new CoreProtocol.Exec<>(
                costs.submitNanos(), Work.SUBMIT, router, new FlowProtocol.Route(r)));
    if (verifying) {
      if (data != null ? !data.hasMoreVerify() : bytesIssued >= bytesWritten) {
        stopping = true; // everything written has been read back
      }
    } else if (plan.runtimeNanos() == 0 || !plan.timeBased()) {
      if (bytesIssued >= plan.ioBytes()) {
        stopping = true; // size= (times loops=) reached: no more I/O (fio: io_size done)
        verifyDue = plan.pattern().verify() && bytesWritten > 0;
      }
    }
    if (plan.pattern().maxIos() > 0 && seq >= plan.pattern().maxIos()) {
      stopping = true; // number_ios= reached, time_based or not (fio's HOWTO)
    }
  }

  private Behavior<Command> onCompleted(Completed m) {
    Completion c = m.completion();
    long id = c.id();
    int slot = JobPlan.slotOf(id);
    if (JobPlan.jobOf(id) != plan.index()
        || slot >= slots.length
        || slots[slot] != JobPlan.seqOf(id) + 1) {
      machine.tell(
          new MachineProtocol.Violation(
              "job "
                  + plan.name()
                  + "["
                  + plan.index()
                  + "]: completion for request "
                  + id
                  + " that is not outstanding (duplicate or foreign)"));
      return this;
    }
    long now = clock.nanoTime();
    accumulate(now);
    slots[slot] = 0;
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
    if (measuring()) {
      if (slotSubmit[slot] < windowStart) {
        edgeBefore += windowStart - slotSubmit[slot]; // its wait before the window is in W only
      }
      if (c.status() != Status.OK) {
        failedLatencySum += lat; // the report counts a failed request but keeps no latency for it
      }
    }
    long slat =
        plan.foreground() ? JobStats.NO_SLAT : Math.max(0, c.dispatchNanos() - c.submitNanos());
    long clat = plan.foreground() ? lat : lat - slat;
    boolean read = slotRead[slot];
    stats.recordAt(
        read ? Direction.READ : Direction.WRITE,
        slotBytes[slot],
        slat,
        clat,
        c.status().errno(),
        now);
    if (wakeTargets != null && c.queue() >= 0) {
      wakeTargets.workDone(plan.index()); // the reap the router handed to a core has run
      cpu =
          wakeTargets.taskCpu(
              plan.index()); // where the wake-up put this thread (select_idle_sibling)
      fallBack(); // it may have been left on a CPU that has gone offline
    }
    if (thinking && !quiesced && freeCount == plan.inFlight()) {
      thinkQuiesced();
    } else if (thinkDue() && !stopping) {
      think();
    }
    submit();
    finishIfDone();
    return this;
  }

  private static OffsetGenerator offsets(JobPlan plan, BlockSizes sizes, RandomSource rnd) {
    return OffsetGenerator.of(
        plan.offset(),
        plan.sizeBytes(),
        sizes,
        plan.pattern(),
        plan.random() ? rnd::nextLong : null);
  }

  /** The measurement window is open (fio records what completes now). */
  private boolean measuring() {
    return windowOpen && !windowClosed;
  }

  private void accumulate(long now) {
    if (measuring()) {
      area += (long) (plan.inFlight() - freeCount) * (now - areaAt);
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
        if (slots[i] != 0) { // still in flight: its time in the window is in L only
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
    if (!reported && freeCount < plan.inFlight() && now - lastProgress >= stallLimit) {
      reported = true;
      List<Long> stuck = new ArrayList<>();
      for (int i = 0; i < slots.length; i++) {
        if (slots[i] != 0) {
          stuck.add(plan.requestId(slots[i] - 1, i));
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
      requests += ds.totalIos() + ds.errors();
      latencySum += ds.totalIos() * ds.lat().mean();
    }
    return new LittlesLaw(
        ended,
        stats.windowEndNs() - stats.windowStartNs(),
        area,
        requests,
        latencySum,
        edgeAfter - edgeBefore);
  }

  private void finishIfDone() {
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
    if (stopping && freeCount == plan.inFlight() && !reported) {
      reported = true;
      timers.cancelAll();
      closeWindow(clock.nanoTime());
      machine.tell(new MachineProtocol.JobDone(plan.index(), stats, littlesLaw()));
    }
  }
}
