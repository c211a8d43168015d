package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.cpu.ServerThreadPlacement;
import io.mqroute.actors.cpu.WakeTargets;
import io.mqroute.actors.device.Device;
import io.mqroute.actors.machine.MachineProtocol.Command;
import io.mqroute.actors.machine.MachineProtocol.GotCore;
import io.mqroute.actors.machine.MachineProtocol.GotPerturbation;
import io.mqroute.actors.machine.MachineProtocol.GotQueue;
import io.mqroute.actors.machine.MachineProtocol.GotRouter;
import io.mqroute.actors.machine.MachineProtocol.JobDone;
import io.mqroute.actors.machine.MachineProtocol.Proceed;
import io.mqroute.actors.machine.MachineProtocol.Remounted;
import io.mqroute.actors.machine.MachineProtocol.Stalled;
import io.mqroute.actors.machine.MachineProtocol.Violation;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.selector.GroupCpusEvenly;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.strategy.BackgroundAdmission;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;
import java.util.stream.IntStream;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * The root of one run: builds cores, router, queues (each with its poller) and jobs from a {@link
 * MachineSpec}, starts the jobs, and when they are all done — or one of them stalls — collects
 * every actor's counters, checks the invariants and completes the result.
 */
public final class Machine extends AbstractBehavior<Command> {
  /**
   * Children run where the machine runs: on the simulation dispatcher (typed spawn defaults
   * elsewhere).
   */
  private static final DispatcherSelector SAME = DispatcherSelector.sameAsParent();

  private final MachineSpec spec;
  private final CompletableFuture<MachineResult> result;
  private final NanoClock clock;
  private final List<ActorRef<CoreProtocol.Command>> cores = new ArrayList<>();
  private final List<ActorRef<FlowProtocol.QueueCommand>> queues = new ArrayList<>();
  private final ActorRef<FlowProtocol.RouterCommand> router;
  private final JobStats[] jobStats;
  private final LittlesLaw[] little;
  private final List<String> violations = new ArrayList<>();

  /**
   * The machine's instance of a one-per-machine device (a disk), shared by every queue; null until
   * needed.
   */
  private Device sharedDevice;

  private final List<ActorRef<JobProtocol.Command>> jobs = new ArrayList<>();
  private final List<JobPlan> plans;
  private int jobsLeft;

  /** Jobs of the running stonewall group that have not finished. */
  private int groupLeft;

  private int nextJob;

  /**
   * Per plan: told to start (or, killed, to end at once); ended (its JobDone arrived); ended by
   * exitall before it started, so it never runs.
   */
  private final boolean[] started;

  private final boolean[] ended;
  private final boolean[] killed;
  private final long[] startedAt;

  private final TimerScheduler<Command> timers;

  /** fio's steady-state check, and the samples of the check in progress. */
  private final SteadyStateMonitor steady;

  private final Map<Integer, SteadyState.Sample> samples = new HashMap<>();
  private int samplesDue;

  /** Plans of the running group held back by wait_for. */
  private final List<Integer> waiting = new ArrayList<>();

  private String stall;

  /** The requests the stalled job was still waiting for. */
  private List<Long> stallOutstanding = List.of();

  private boolean collecting;
  private FlowProtocol.RouterStats routerStats;
  private final List<FlowProtocol.QueueStats> queueStats = new ArrayList<>();
  private final List<CoreProtocol.CoreStats> coreStats = new ArrayList<>();

  /** The chaos controller, or null for an undisturbed run. */
  private final ActorRef<PerturbationProtocol.Command> perturbation;

  private PerturbationProtocol.Report perturbationReport;
  private int remountsLeft;

  /**
   * @param stats one fresh JobStats per plan (the workload layer knows how fio names and groups
   *     them)
   * @param perturbation acts on the machine during the run (chaos), or null; with one, every job
   *     group ends with an unmount/remount (all queues drained) before the next starts
   */
  public static Behavior<Command> create(
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      CompletableFuture<MachineResult> result,
      Perturbation perturbation) {
    return Behaviors.setup(
        ctx ->
            Behaviors.withTimers(
                timers ->
                    new Machine(ctx, timers, spec, plans, stats, seed, result, perturbation)));
  }

  private Machine(
      ActorContext<Command> ctx,
      TimerScheduler<Command> timers,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      CompletableFuture<MachineResult> result,
      Perturbation perturbation) {
    super(ctx);
    this.timers = timers;
    this.spec = spec;
    this.plans = plans;
    this.steady = new SteadyStateMonitor(plans);
    if (steady.enabled()) {
      timers.startTimerAtFixedRate(
          MachineProtocol.SteadyStateTick.INSTANCE, Duration.ofNanos(steady.intervalNanos()));
    }
    this.result = result;
    this.clock = NanoClock.of(ctx.getSystem());
    SeededRandom root = SeededRandom.root(seed);
    int ncpu = spec.topology().cpuCount();
    int[] cpuToNode = IntStream.range(0, ncpu).map(spec.topology()::cpuToNode).toArray();
    // io_uring punted to io-wq: each io_uring job's io-wq worker is a task of its own, after the
    // jobs (task plans.size() + index), starting on the job's CPU with the job's affinity
    // (io_wq_create copies the creating task's cpus_allowed)
    boolean ioWq =
        spec.ioUringPunt() == IoUringPunt.IO_WQ && plans.stream().anyMatch(JobPlan::ioUring);
    List<JobPlan> tasks = new ArrayList<>(plans);
    if (ioWq) {
      tasks.addAll(plans);
    }
    WakeTargets wakeTargets =
        new WakeTargets(
            cpuToNode,
            tasks.stream().mapToInt(JobPlan::startCpu).toArray(),
            tasks.stream().map(JobPlan::cpus).toArray(int[][]::new),
            clock::nanoTime,
            spec.vcpuPack(),
            spec.vcpuPackSleepingWaker());
    for (int c = 0; c < ncpu; c++) {
      cores.add(
          ctx.spawn(
              Core.create(
                  c,
                  spec.cstates(),
                  spec.governor(),
                  spec.costs().switchNanos(),
                  spec.costs().sleepWakeNanos(),
                  wakeTargets,
                  // exact without a Tick only when nothing can change queued work's start, and
                  // nothing reads how many items wait (a /dev/fuse worker's placement does)
                  perturbation == null
                      && !spec.governor().schedutil()
                      && spec.queues().kind() != QueueKind.DEV_FUSE),
              "core-" + c,
              SAME));
    }
    MachineSpec.Queues q = spec.queues();
    MutableRoutingView.Builder vb =
        MutableRoutingView.newBuilder(spec.topology()).queues(q.count());
    for (int i = 0; i < q.count(); i++) {
      vb.queueCpu(i, q.homeCpu()[i]);
    }
    vb.registered(q.registered().stream().mapToInt(Integer::intValue).toArray());
    MutableRoutingView view = vb.build();
    BackgroundAdmission admission =
        BackgroundAdmission.newBuilder()
            .mode(spec.router().admission())
            .queues(q.count())
            .maxBackground(spec.router().maxBackground())
            .congestionThreshold(spec.router().congestionThreshold())
            .build();
    ActorRef<CoreProtocol.Command> pending =
        spec.router().pendingQueueNanos() < 0
            ? null
            : ctx.spawn(
                Core.create(-1, List.of(), Governor.PERFORMANCE, 0, null), "pending-queue", SAME);
    Router.Settings rs =
        new Router.Settings(
            Selectors.create(spec.router().selector(), spec.router().selectorParams()),
            view,
            admission,
            spec.wake(),
            spec.costs(),
            q.homeCpu(),
            spec.router().pendingQueueNanos(),
            wakeTargets,
            q.kind() == QueueKind.PER_CPU,
            q.kind() == QueueKind.VIRTIO ? GroupCpusEvenly.map(cpuToNode, q.count()) : null);
    this.router =
        ctx.spawn(Router.create(rs, root.split("routing"), queues, cores, pending), "router", SAME);
    long serverNanos = q.kind() == QueueKind.PER_CPU ? spec.costs().serverNanos() : 0;
    if (q.kind() == QueueKind.DEV_FUSE) {
      var placement = new ServerThreadPlacement(wakeTargets, cpuToNode);
      queues.add(
          ctx.spawn(
              DevFuseQueue.create(
                  0,
                  q.pollers(),
                  spec.costs().workerNanos(),
                  device(),
                  root.split("service/0"),
                  root.split("device-faults/0"),
                  spec.costs(),
                  List.copyOf(cores),
                  placement::place,
                  router,
                  spec.devFuseReadAtRun()),
              "queue-0",
              SAME));
    }
    for (int i = 0; q.kind() != QueueKind.DEV_FUSE && i < q.count(); i++) {
      ActorRef<CoreProtocol.Command> home = cores.get(q.homeCpu()[i]);
      Device dev = device();
      var poller =
          Poller.create(
              dev,
              root.split("service/" + i),
              q.dispatch(),
              q.pollers(),
              serverNanos,
              home,
              root.split("device-faults/" + i),
              q.kind() == QueueKind.PER_CPU,
              // the chained harvest ends a request where its queue cannot say whether the ring
              // thread runs on (Ended.wakerRunsOn), which the sleeping-waker rule reads
              perturbation == null && !spec.vcpuPackSleepingWaker());
      var settings =
          new RequestQueue.Settings(
              i,
              q.homeCpu()[i],
              q.ringSize(),
              q.fullRing(),
              q.enqueueError(),
              q.enomemProbability(),
              spec.costs().completionNanos(),
              q.kind() == QueueKind.PER_CPU,
              false,
              // the ring thread's backlog waits here until its commit frees it: exact only when
              // nothing else frees it (one thread, a device that holds it, no faults)
              q.kind() == QueueKind.PER_CPU
                  && Poller.concurrency(q.dispatch(), q.pollers()) == 1
                  && dev.holdsWorker()
                  && perturbation == null);
      queues.add(
          ctx.spawn(
              RequestQueue.create(settings, root.split("faults/" + i), poller, home, router),
              "queue-" + i,
              SAME));
    }
    this.jobStats = new JobStats[plans.size()];
    this.little = new LittlesLaw[plans.size()];
    this.started = new boolean[plans.size()];
    this.ended = new boolean[plans.size()];
    this.killed = new boolean[plans.size()];
    this.startedAt = new long[plans.size()];
    Map<Integer, FioFlow> flows = new HashMap<>();
    for (JobPlan p : plans) {
      jobStats[p.index()] = stats.apply(p.index());
      FioFlow flow =
          p.control().flows()
              ? flows.computeIfAbsent(p.control().flowId(), id -> new FioFlow())
              : null;
      jobs.add(
          ctx.spawn(
              Job.create(
                  p,
                  jobStats[p.index()],
                  root.split("workload/" + p.index()),
                  root.split("arrivals/" + p.index()),
                  cores,
                  router,
                  ctx.getSelf(),
                  spec.costs(),
                  spec.stallLimitNanos(),
                  wakeTargets,
                  null,
                  flow,
                  ioWq && p.ioUring() ? plans.size() + p.index() : -1),
              "job-" + p.index(),
              SAME));
    }
    this.perturbation =
        perturbation == null
            ? null
            : ctx.spawn(
                perturbation.create(
                    new Perturbation.Handles(
                        List.copyOf(cores),
                        router,
                        List.copyOf(queues),
                        q.homeCpu().clone(),
                        List.copyOf(jobs),
                        ctx.getSelf(),
                        root.split("chaos"))),
                "perturbation",
                SAME);
    ctx.getChildren().forEach(ctx::watch);
    this.jobsLeft = plans.size();
    beforeNextGroup();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(JobDone.class, this::onJobDone)
        .onMessage(Stalled.class, this::onStalled)
        .onMessage(
            Violation.class,
            v -> {
              violations.add(v.what());
              return this;
            })
        .onMessage(GotRouter.class, g -> collected(() -> routerStats = g.stats()))
        .onMessage(GotQueue.class, g -> collected(() -> queueStats.add(g.stats())))
        .onMessage(GotCore.class, g -> collected(() -> coreStats.add(g.stats())))
        .onMessage(Remounted.class, this::onRemounted)
        .onMessage(MachineProtocol.SteadyStateTick.class, t -> onSteadyStateTick())
        .onMessage(MachineProtocol.SteadyStateSampled.class, this::onSteadyStateSampled)
        .onMessage(
            Proceed.class,
            p -> {
              if (stall == null && !collecting) {
                startNextGroup();
              }
              return this;
            })
        .onMessage(GotPerturbation.class, g -> collected(() -> perturbationReport = g.report()))
        .onSignal(ChildFailed.class, this::onChildFailed)
        .build();
  }

  /** A model actor threw: a bug, reported as a broken run instead of a hang. */
  private Behavior<Command> onChildFailed(ChildFailed f) {
    violations.add("actor " + f.getRef().path().name() + " failed: " + f.getCause());
    return finish(stall);
  }

  /**
   * Puts the result out; the model stays as it is until the system is terminated. Stopping here
   * would tear down the queues' streams inside the run, and stream shutdown touches Pekko's
   * internal dispatcher.
   */
  private Behavior<Command> finish(String stallReport) {
    result.complete(
        new MachineResult(
            List.of(jobStats),
            littles(),
            routerStats,
            List.copyOf(queueStats),
            List.copyOf(coreStats),
            List.copyOf(violations),
            stallReport,
            clock.nanoTime(),
            perturbationReport));
    return Behaviors.ignore();
  }

  private Behavior<Command> onJobDone(JobDone d) {
    little[d.job()] = d.little();
    if (!d.little().holds()) {
      violations.add("job " + d.job() + ": Little's law broken: " + d.little());
    }
    jobsLeft--;
    groupLeft--;
    ended[d.job()] = true;
    JobControl.ExitWhat exit = plans.get(d.job()).control().exitWhat();
    if (exit != null) {
      exitAll(d.job(), exit);
    }
    startWaiters();
    if (groupLeft == 0 && stall == null) {
      if (perturbation != null) {
        remount();
      } else {
        beforeNextGroup();
      }
    }
    return this;
  }

  /**
   * Unmount and mount again between groups (generic/650's _test_cycle_mount): every queue must be
   * drained.
   */
  private void remount() {
    remountsLeft = queues.size() + 1;
    queues.forEach(q -> q.tell(new FlowProtocol.QueueRemount(getContext().getSelf())));
    router.tell(new FlowProtocol.RouterRemount(getContext().getSelf()));
  }

  private Behavior<Command> onRemounted(Remounted r) {
    violations.addAll(r.problems());
    if (--remountsLeft == 0 && stall == null && !collecting) {
      beforeNextGroup();
    }
    return this;
  }

  /** A perturbation gets its say before each group; without one the group starts at once. */
  private void beforeNextGroup() {
    if (nextJob == plans.size()) {
      collect();
    } else if (perturbation != null) {
      int group = plans.get(nextJob).group();
      perturbation.tell(
          new PerturbationProtocol.BeforeGroup(
              group, group == plans.get(plans.size() - 1).group(), getContext().getSelf()));
    } else {
      startNextGroup();
    }
  }

  /**
   * fio's stonewall: a group starts when every job of the previous one has finished (run_threads);
   * within it, a job with wait_for starts when its waitees have ended.
   */
  private void startNextGroup() {
    int group = plans.get(nextJob).group();
    while (nextJob < plans.size() && plans.get(nextJob).group() == group) {
      int i = nextJob++;
      groupLeft++;
      waiting.add(i);
    }
    startWaiters();
  }

  /** Starts every held-back job of the group whose waitees have all ended (or ends it, killed). */
  private void startWaiters() {
    for (int k = 0; k < waiting.size(); ) {
      int i = waiting.get(k);
      if (killed[i] || waiteesEnded(i)) {
        waiting.remove(k);
        started[i] = true;
        startedAt[i] = clock.nanoTime();
        steady.started(i, startedAt[i] + plans.get(i).startDelayNanos());
        jobs.get(i).tell(killed[i] ? JobProtocol.Terminate.INSTANCE : JobProtocol.Start.INSTANCE);
      } else {
        k++;
      }
    }
  }

  private boolean waiteesEnded(int job) {
    for (int w : plans.get(job).control().waitFor()) {
      if (!ended[w]) {
        return false;
      }
    }
    return true;
  }

  /** fio's TD_RUNNING: told to start, past its startdelay, not ended. */
  private boolean running(int i) {
    return started[i]
        && !ended[i]
        && !killed[i]
        && clock.nanoTime() - startedAt[i] >= plans.get(i).startDelayNanos();
  }

  /** steadystate_check: ask every running job that judges steady state for its counters. */
  private Behavior<Command> onSteadyStateTick() {
    if (samplesDue > 0 || collecting) {
      return this; // the last check has not had all its answers (cannot happen in virtual time)
    }
    samples.clear();
    for (int i : steady.jobs()) {
      if (running(i)) {
        samplesDue++;
        jobs.get(i).tell(new JobProtocol.SampleSteadyState(getContext().getSelf()));
      }
    }
    return this;
  }

  private Behavior<Command> onSteadyStateSampled(MachineProtocol.SteadyStateSampled m) {
    samples.put(m.sample().job(), m.sample());
    if (--samplesDue > 0) {
      return this;
    }
    for (int i : steady.check(clock.nanoTime(), samples)) {
      if (!ended[i] && !killed[i]) { // fio_mark_td_terminate: as exitall ends a job
        kill(i);
      }
    }
    return this;
  }

  /**
   * fio_terminate_threads after {@code job} ended with exitall: the running clones it names end as
   * at their runtime's end; those that have not started never run (fio marks them terminated and
   * run_threads skips them), except under exit_what=stonewall, which ends running ones only.
   */
  private void exitAll(int job, JobControl.ExitWhat what) {
    int group = plans.get(job).control().fioGroup();
    for (JobPlan p : plans) {
      int i = p.index();
      if (ended[i] || killed[i]) {
        continue;
      }
      boolean hit =
          switch (what) {
            case GROUP -> p.control().fioGroup() == group;
            case STONEWALL -> running(i);
            case ALL -> true;
          };
      if (hit) {
        kill(i);
      }
    }
  }

  /** A job fio marks terminated: ended now if it runs, never started if it has not. */
  private void kill(int i) {
    killed[i] = true;
    if (started[i]) {
      jobs.get(i).tell(JobProtocol.Terminate.INSTANCE);
    }
  }

  private Behavior<Command> onStalled(Stalled s) {
    if (stall == null) {
      stallOutstanding = s.outstanding();
      stall =
          "stall: job "
              + s.job()
              + " has had "
              + s.outstanding().size()
              + " request(s) outstanding since "
              + s.sinceNanos()
              + " ns without a completion (stall-limit "
              + spec.stallLimitNanos()
              + " ns): "
              + ReportLists.capped(s.outstanding());
      collect();
    }
    return this;
  }

  /**
   * A queue's device: its own instance, or the machine's one for a device that is one physical
   * unit.
   */
  private Device device() {
    Device d = spec.device().get();
    if (!d.onePerMachine()) {
      return d;
    }
    if (sharedDevice == null) {
      sharedDevice = d;
    }
    return sharedDevice;
  }

  private List<LittlesLaw> littles() {
    List<LittlesLaw> l = new ArrayList<>();
    for (LittlesLaw x : little) {
      l.add(x == null ? LittlesLaw.notEvaluated() : x);
    }
    return l;
  }

  private void collect() {
    if (collecting) {
      return;
    }
    collecting = true;
    timers.cancelAll();
    ActorContext<Command> ctx = getContext();
    router.tell(
        new FlowProtocol.RouterReport(
            ctx.messageAdapter(FlowProtocol.RouterStats.class, GotRouter::new)));
    ActorRef<FlowProtocol.QueueStats> qa =
        ctx.messageAdapter(FlowProtocol.QueueStats.class, GotQueue::new);
    queues.forEach(q -> q.tell(new FlowProtocol.QueueReport(qa)));
    ActorRef<CoreProtocol.CoreStats> ca =
        ctx.messageAdapter(CoreProtocol.CoreStats.class, GotCore::new);
    cores.forEach(c -> c.tell(new CoreProtocol.Report(ca)));
    if (perturbation != null) {
      perturbation.tell(new PerturbationProtocol.Collect(ctx.getSelf()));
    }
  }

  /** A report has come ({@code store} keeps it); once all have, the run's result is put out. */
  private Behavior<Command> collected(Runnable store) {
    store.run();
    if (routerStats == null
        || queueStats.size() < queues.size()
        || coreStats.size() < cores.size()
        || (perturbation != null && perturbationReport == null)) {
      return this;
    }
    queueStats.sort(Comparator.comparingInt(FlowProtocol.QueueStats::queue));
    coreStats.sort(Comparator.comparingInt(CoreProtocol.CoreStats::cpu));
    for (FlowProtocol.QueueStats qs : queueStats) {
      qs.violations().forEach(v -> violations.add("queue " + qs.queue() + ": " + v));
      if (stall == null && qs.onRing() + qs.queued() > 0) {
        violations.add(
            "queue "
                + qs.queue()
                + ": "
                + (qs.onRing() + qs.queued())
                + " request(s) left after every job finished: "
                + ReportLists.capped(qs.stuck()));
      }
    }
    if (routerStats.admissionBreaches() > 0) {
      violations.add(
          "router: background admission exceeded max_background "
              + routerStats.admissionBreaches()
              + " time(s) beyond the one-per-queue rule");
    }
    String stallReport = stall;
    if (stall != null) {
      Set<Long> held = new HashSet<>(routerStats.holding());
      queueStats.forEach(qs -> held.addAll(qs.stuck()));
      // CPU work longer than the stall limit (a submit still running) holds a request too
      coreStats.forEach(cs -> held.addAll(cs.inWork()));
      List<String> lost =
          stallOutstanding.stream()
              .filter(id -> !held.contains(id))
              .map(id -> "0x" + Long.toHexString(id))
              .toList();
      if (!lost.isEmpty()) {
        violations.add(
            "lost request(s) "
                + ReportLists.capped(lost)
                + ": outstanding at job "
                + plans.get(JobPlan.jobOf(stallOutstanding.get(0))).name()
                + " but on no queue's ring or overflow list and not waiting in the router");
      }
      StringBuilder sb = new StringBuilder(stall);
      int holding = 0;
      for (FlowProtocol.QueueStats qs : queueStats) {
        if (qs.onRing() + qs.queued() > 0 && ++holding <= ReportLists.MAX_ITEMS) {
          sb.append("; queue ")
              .append(qs.queue())
              .append(" (cpu ")
              .append(qs.homeCpu())
              .append("): on ring ")
              .append(qs.onRing())
              .append(", overflow ")
              .append(qs.queued())
              .append(", enomem ")
              .append(qs.enomem())
              .append(", stuck ")
              .append(ReportLists.capped(qs.stuck()));
        }
      }
      if (holding > ReportLists.MAX_ITEMS) {
        sb.append("; ... and ")
            .append(holding - ReportLists.MAX_ITEMS)
            .append(" more queue(s) holding requests");
      }
      Set<Long> outstanding = new HashSet<>(stallOutstanding);
      int working = 0;
      for (CoreProtocol.CoreStats cs : coreStats) {
        List<Long> busy = cs.inWork().stream().filter(outstanding::contains).toList();
        if (!busy.isEmpty() && ++working <= ReportLists.MAX_ITEMS) {
          sb.append("; cpu ")
              .append(cs.cpu())
              .append(": ")
              .append(busy.size())
              .append(" of them in CPU work ")
              .append(ReportLists.capped(busy));
        }
      }
      if (working > ReportLists.MAX_ITEMS) {
        sb.append("; ... and ")
            .append(working - ReportLists.MAX_ITEMS)
            .append(" more CPU(s) with them in CPU work");
      }
      stallReport = sb.toString();
    }
    return finish(stallReport);
  }
}
