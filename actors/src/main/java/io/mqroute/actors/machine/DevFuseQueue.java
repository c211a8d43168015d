package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.CpuCosts;
import io.mqroute.actors.device.Device;
import io.mqroute.actors.machine.FlowProtocol.Ended;
import io.mqroute.actors.machine.FlowProtocol.Enqueue;
import io.mqroute.actors.machine.FlowProtocol.OnRing;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.QueueFault;
import io.mqroute.actors.machine.FlowProtocol.QueueRemount;
import io.mqroute.actors.machine.FlowProtocol.QueueReport;
import io.mqroute.actors.machine.FlowProtocol.QueueStats;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.actors.machine.FlowProtocol.Served;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * FUSE over {@code /dev/fuse}: one queue ({@code fiq->pending}) served by a pool of libfuse worker
 * threads that the scheduler places on the machine's cores (fuse_dev_queue_req, fuse_dev_do_read,
 * fuse_dev_do_write in fs/fuse/dev.c; fuse_do_work in libfuse's lib/fuse_loop_mt.c).
 *
 * <ul>
 *   <li>A request is appended to {@code pending} (FIFO, unbounded) and {@code wake_up(&fiq->waitq)}
 *       wakes one exclusive waiter: the worker that has waited longest (prepare_to_wait_exclusive
 *       queues at the tail, __wake_up_common wakes from the head).
 *   <li>The woken worker's CPU is chosen by {@link ServerPlacement} (select_task_rq_fair over the
 *       idle state the cores publish); waking it there costs {@code wake-cost}, plus {@code
 *       migrate-cost} when it is not the CPU it slept on.
 *   <li>The worker's work is {@code worker-cost} (default {@code server-cost}: the read of
 *       /dev/fuse, libfuse's dispatch, the reply's writev or splice) plus, for an on-CPU device
 *       such as passthrough_hp's pread, the device's time; an off-CPU device blocks the worker,
 *       which then continues on its CPU.
 *   <li>The reply's writev ends the request in the worker's context (fuse_request_end on the
 *       worker's CPU, {@code completion-cost}); the router then wakes the waiter from that CPU.
 *   <li>A worker that finishes takes the next pending request at once, without a wake-up, or goes
 *       back to sleep in read(2) at the tail of the waiters.
 * </ul>
 *
 * <p>The pool grows as libfuse grows it (lib/fuse_loop_mt.c fuse_do_work: a worker that receives a
 * request when no other is available starts one more, up to {@code max_threads}, 10 by default),
 * from the one worker fuse_session_loop_mt starts, and never shrinks ({@code max_idle_threads =
 * UINT_MAX} since 3.12): it ends up one larger than the run's peak concurrency. Its size matters
 * beyond capacity: the waiters rotate (FIFO), so with two readers an even pool binds each worker to
 * one reader, an odd one makes every worker serve both in turn and, on two CPUs, cross CPUs (issue
 * 21, mechanism 3). Not modelled: FORGETs and interrupts (read first from the device), splice, and
 * the reply's copy cost as a function of the size (it is in {@code server-cost}).
 *
 * <p>{@code machine.kernel.dev-fuse-read = at-run} reads the device as fuse_dev_do_read does,
 * instead of handing the woken worker its request: the request waits in {@code pending}, the
 * wake-up takes a sleeping worker off the wait queue, and the worker takes whatever is pending when
 * it runs — or nothing, when a worker that was already running took it, and sleeps again. A worker
 * keeps its CPU while it has requests to read: one woken onto a CPU where another worker serves
 * waits, awake and off the wait queue, until that one sleeps, so sends find nobody to wake while
 * the workers are busy (on issue 21's 2-vCPU guest no worker sleeps at 73 % of the sends at
 * io_uring iodepth 8, and the workers are woken 0.06-0.24 times per request:
 * real-fuse/wake-trace.py). A worker blocked in an off-CPU device leaves its CPU to the next one
 * woken there; back from the device it sends its reply and, if another worker holds the CPU by
 * then, waits for it as a woken one does.
 */
public final class DevFuseQueue extends AbstractBehavior<QueueCommand> {
  private final int index;
  private final NanoClock clock;
  private final List<ActorRef<CoreProtocol.Command>> cores;
  private final ActorRef<RouterCommand> router;
  private final Device device;
  private final RandomGenerator rnd;
  private final CpuCosts costs;
  private final ServerPlacement placement;
  private final long workerNanos;
  private final CoreProtocol.ToCore toCore;

  /**
   * {@code dev-fuse-read = at-run} (class comment); false: the woken worker is handed its request.
   */
  private final boolean atRun;

  /** At run: per CPU, the worker that holds it for workers' work, or -1. */
  private final int[] runningOn;

  /** At run: per CPU, workers woken there that wait for it, in the order they were woken. */
  private final List<ArrayDeque<Integer>> wokenOn;

  /** At run: per worker woken and waiting, the wake-up's cost it pays when it runs. */
  private final long[] wakeCost;

  /** fiq->pending. */
  private final ArrayDeque<OnRing> pending = new ArrayDeque<>();

  /** Workers asleep in read(2) on /dev/fuse, longest-waiting first. */
  private final ArrayDeque<Integer> idle = new ArrayDeque<>();

  /** Per worker (up to max_threads), the CPU it last ran on. */
  private final int[] workerCpu;

  /** Workers started so far (mt->numworker). */
  private int workers;

  /** Request id → worker serving it, and whether its server work is done (device time left). */
  private final Map<Long, Integer> serving = new HashMap<>();

  private final Map<Long, Long> deviceLeft = new HashMap<>();
  private final LinkedHashMap<Long, Request> inService = new LinkedHashMap<>();

  private long accepted;
  private long completed;
  private long wakeups;
  private long overflowWaits;
  private long overflowNanos;
  private int maxBusy;
  private long maxWaitNanos;
  private long errors;
  private double eioProbability;
  private final RandomSource faults;
  private final List<String> violations = new ArrayList<>();

  /** Busy workers, pending requests and requests in the queue, over time, since it started. */
  private final long startNanos;

  private final TimeIntegral busyTime;
  private final TimeIntegral pendingTime;
  private final TimeIntegral inQueueTime;
  private long started;
  private long waited;
  private long waitNanos;

  /**
   * @param threads libfuse's worker threads (max_threads)
   * @param workerNanos a worker's CPU work per request besides the device's
   * @param placement where a woken worker runs (shared idle state of the cores)
   * @param atRun workers read the device when they run ({@code machine.kernel.dev-fuse-read =
   *     at-run}, class comment)
   */
  public static Behavior<QueueCommand> create(
      int index,
      int threads,
      long workerNanos,
      Device device,
      RandomSource service,
      RandomSource faults,
      CpuCosts costs,
      List<ActorRef<CoreProtocol.Command>> cores,
      ServerPlacement placement,
      ActorRef<RouterCommand> router,
      boolean atRun) {
    return Behaviors.setup(
        ctx ->
            new DevFuseQueue(
                ctx,
                index,
                threads,
                workerNanos,
                device,
                service,
                faults,
                costs,
                cores,
                placement,
                router,
                atRun));
  }

  private DevFuseQueue(
      ActorContext<QueueCommand> ctx,
      int index,
      int threads,
      long workerNanos,
      Device device,
      RandomSource service,
      RandomSource faults,
      CpuCosts costs,
      List<ActorRef<CoreProtocol.Command>> cores,
      ServerPlacement placement,
      ActorRef<RouterCommand> router,
      boolean atRun) {
    super(ctx);
    this.atRun = atRun;
    this.runningOn = new int[cores.size()];
    Arrays.fill(runningOn, -1);
    this.wokenOn = new ArrayList<>(cores.size());
    for (int c = 0; c < cores.size(); c++) {
      wokenOn.add(new ArrayDeque<>());
    }
    this.wakeCost = new long[threads];
    this.index = index;
    this.clock = NanoClock.of(ctx.getSystem());
    this.cores = cores;
    this.router = router;
    this.device = device;
    this.rnd = service::nextLong;
    this.faults = faults;
    this.costs = costs;
    this.placement = placement;
    this.workerNanos = workerNanos;
    this.toCore = (c, e) -> cores.get(c).tell(e);
    this.startNanos = clock.nanoTime();
    this.busyTime = new TimeIntegral(startNanos);
    this.pendingTime = new TimeIntegral(startNanos);
    this.inQueueTime = new TimeIntegral(startNanos);
    this.workerCpu = new int[threads];
    // fuse_session_loop_mt starts one worker (the main thread only waits); CPU 0 is arbitrary: its
    // first wake-up places it (ServerPlacement)
    addWorker(0);
  }

  /** fuse_loop_start_thread: a new worker, asleep in read(2) at the tail of the waiters. */
  private void addWorker(int cpu) {
    // where its creator runs: wake_up_new_task's fork balancing (the idlest CPU) is not modelled;
    // the new worker sleeps in read(2) at once, and its first wake-up places it
    workerCpu[workers] = cpu;
    idle.addLast(workers++);
  }

  @Override
  public Receive<QueueCommand> createReceive() {
    return newReceiveBuilder()
        .onMessage(Enqueue.class, e -> counted(onEnqueue(e)))
        .onMessage(Served.class, s -> counted(onServed(s)))
        .onMessage(FlowProtocol.WorkerRuns.class, m -> counted(onWorkerRuns(m.worker())))
        .onMessageEquals(FlowProtocol.IpiSent.INSTANCE, () -> this)
        .onMessage(QueueReport.class, this::onReport)
        .onMessage(QueueRemount.class, this::onRemount)
        .onMessage(QueueFault.class, this::onFault)
        // /dev/fuse has no CPU of its own: nothing to evacuate, no ring thread to move
        .onMessage(FlowProtocol.Evacuate.class, m -> this)
        .onMessage(FlowProtocol.MoveServer.class, m -> this)
        .build();
  }

  /** fuse_dev_queue_req: append to pending, wake one waiting worker. */
  private Behavior<QueueCommand> onEnqueue(Enqueue e) {
    long now = clock.nanoTime();
    accepted++;
    OnRing item = new OnRing(e.request(), now);
    Integer w = idle.pollFirst();
    if (w == null) {
      overflowWaits++; // every worker is busy (at run: awake), it waits for one to read it
      pending.addLast(item);
      return this;
    }
    int waker = e.request().cpu();
    int prev = workerCpu[w];
    int cpu = placement.place(prev, waker);
    long wake = cpu != waker ? costs.wakeNanos() : 0;
    long migrate = cpu != prev ? costs.migrateNanos() : 0;
    wakeups++;
    if (atRun) {
      pending.addLast(item);
      wokenAtRun(w, cpu, wake + migrate, waker);
    } else {
      start(w, cpu, item, wake + migrate, waker);
    }
    return this;
  }

  /**
   * At run: the worker woken onto {@code cpu} takes whatever is pending when it gets that CPU: at
   * once, or when the worker holding it sleeps.
   */
  private void wokenAtRun(int w, int cpu, long wakeNanos, int waker) {
    workerCpu[w] = cpu;
    wakeCost[w] = wakeNanos;
    if (runningOn[cpu] < 0) {
      runningOn[cpu] = w;
      CoreProtocol.wakeUp(waker, cpu, costs.ipiNanos(), runs(w), cores, toCore);
    } else {
      wokenOn.get(cpu).addLast(w); // another worker serves there: this one waits, awake
      if (CoreProtocol.sendsIpi(waker, cpu, costs.ipiNanos())) {
        toCore.send(
            waker,
            new CoreProtocol.Exec<>(
                costs.ipiNanos(), Work.IPI, getContext().getSelf(), FlowProtocol.IpiSent.INSTANCE));
      }
    }
  }

  /** The woken worker's first item on its CPU: the wake-up's cost, then it reads the device. */
  private CoreProtocol.Exec<QueueCommand> runs(int w) {
    long cost = wakeCost[w];
    wakeCost[w] = 0;
    // a worker asleep in read(2) on /dev/fuse is not in an I/O wait: no iowait boost
    return new CoreProtocol.Exec<>(
        cost, Work.SERVER, getContext().getSelf(), new FlowProtocol.WorkerRuns(w), false);
  }

  /** fuse_dev_do_read when the worker runs: the oldest pending request, or back to sleep. */
  private Behavior<QueueCommand> onWorkerRuns(int w) {
    if (!readPending(w, clock.nanoTime())) {
      sleepAtRun(w);
    }
    return this;
  }

  /** An awake worker takes the oldest pending request on its CPU; false when none is pending. */
  private boolean readPending(int w, long now) {
    OnRing next = pending.pollFirst();
    if (next == null) {
      return false;
    }
    overflowNanos += now - next.acceptedNanos();
    start(w, workerCpu[w], next, 0, -1);
    return true;
  }

  /** The worker found nothing to read: it sleeps, and the next worker waiting for its CPU runs. */
  private void sleepAtRun(int w) {
    idle.addLast(w);
    releaseCpu(w);
  }

  /**
   * The worker leaves its CPU (asleep, or blocked in the device): the next one woken there runs.
   */
  private void releaseCpu(int w) {
    int cpu = workerCpu[w];
    if (runningOn[cpu] != w) {
      return;
    }
    Integer next = wokenOn.get(cpu).pollFirst();
    runningOn[cpu] = next == null ? -1 : next;
    if (next != null) {
      toCore.send(cpu, runs(next));
    }
  }

  /**
   * After a message that may have started or ended a request: the time integrals take the new
   * counts from now on.
   */
  private Behavior<QueueCommand> counted(Behavior<QueueCommand> next) {
    long now = clock.nanoTime();
    busyTime.set(now, serving.size());
    pendingTime.set(now, pending.size());
    inQueueTime.set(now, serving.size() + pending.size());
    return next;
  }

  /**
   * The worker runs the server's work for {@code item} on {@code cpu}.
   *
   * @param waker the CPU of the thread that woke the worker for it (it pays the IPI when that is
   *     another CPU), or -1 for a worker that was awake
   */
  private void start(int w, int cpu, OnRing item, long extraNanos, int waker) {
    if (idle.isEmpty() && workers < workerCpu.length) {
      addWorker(cpu); // fuse_do_work: mt->numavail == 0 && mt->numworker < mt->max_threads
    }
    long wait = clock.nanoTime() - item.acceptedNanos();
    started++;
    waited += wait > 0 ? 1 : 0;
    waitNanos += wait;
    workerCpu[w] = cpu;
    Request r = item.request();
    serving.put(r.id(), w);
    inService.put(r.id(), r);
    maxBusy = Math.max(maxBusy, serving.size());
    // pread
    long svc =
        device.serviceNanos(r.op(), r.fileId(), r.offset(), r.length(), clock.nanoTime(), rnd);
    long work = extraNanos + workerNanos;
    if (device.onCpu()) {
      work += svc;
    } else {
      deviceLeft.put(r.id(), svc);
    }
    // a worker asleep in read(2) on /dev/fuse is not in an I/O wait: no iowait boost
    CoreProtocol.Exec<QueueCommand> serve =
        new CoreProtocol.Exec<>(work, Work.SERVER, getContext().getSelf(), new Served(item), false);
    CoreProtocol.wakeUp(waker, cpu, costs.ipiNanos(), serve, cores, toCore);
  }

  private Behavior<QueueCommand> onServed(Served s) {
    OnRing item = s.item();
    Request r = item.request();
    Long left = deviceLeft.remove(r.id());
    if (left != null && left > 0) { // the worker blocks in pread; it goes on where it slept
      if (atRun) {
        Integer blocked = serving.get(r.id());
        if (blocked != null) {
          releaseCpu(blocked); // a blocked thread leaves its CPU to the others
        }
      }
      getContext().scheduleOnce(Duration.ofNanos(left), getContext().getSelf(), s);
      return this;
    }
    Integer w = serving.remove(r.id());
    if (w == null) {
      violations.add("request " + r.id() + " was served but no worker had it");
      return this;
    }
    inService.remove(r.id());
    int cpu = workerCpu[w];
    long now = clock.nanoTime();
    Status status =
        eioProbability > 0 && faults.nextDouble() < eioProbability ? Status.EIO : item.status();
    if (status != Status.OK) {
      errors++;
    }
    completed++;
    maxWaitNanos = Math.max(maxWaitNanos, now - item.acceptedNanos());
    Completion c =
        new Completion(r.id(), status, r.submitNanos(), item.acceptedNanos(), now, index);
    // fuse_dev_do_write → fuse_request_end in the worker's writev, on the worker's CPU
    cores
        .get(cpu)
        .tell(
            new CoreProtocol.Exec<>(
                costs.completionNanos(),
                Work.COMPLETION,
                router,
                // the worker takes a pending request next (at once, or when it runs): it runs on
                new Ended(r, c, cpu, !pending.isEmpty())));
    if (atRun && runningOn[cpu] != w) {
      if (runningOn[cpu] >= 0) {
        // back from a device it blocked in, on a CPU another worker holds now: its reply is sent,
        // and it waits, awake, for that CPU to read the device again
        wokenOn.get(cpu).addLast(w);
        return this;
      }
      runningOn[cpu] = w;
    }
    if (!readPending(w, now)) {
      if (atRun) {
        sleepAtRun(w);
      } else {
        idle.addLast(w);
      }
    }
    return this;
  }

  private Behavior<QueueCommand> onFault(QueueFault f) {
    Fault fault = f.fault();
    if (fault.kind() == Fault.Kind.EIO) {
      eioProbability = fault.value();
    } // the ring faults (ENOMEM, RING_LIMIT, LOSE, STALL, SLOWDOWN) have no /dev/fuse counterpart
    return this;
  }

  private Behavior<QueueCommand> onReport(QueueReport q) {
    List<Long> stuck = stuckIds();
    List<String> v = new ArrayList<>(violations);
    if (accepted != completed + serving.size() + pending.size()) {
      v.add(
          "accepted "
              + accepted
              + " != completed "
              + completed
              + " + in service "
              + serving.size()
              + " + pending "
              + pending.size());
    }
    q.replyTo()
        .tell(
            new QueueStats(
                index,
                -1,
                accepted,
                completed,
                maxBusy,
                overflowWaits,
                overflowNanos,
                0,
                wakeups,
                0,
                serving.size(),
                pending.size(),
                v,
                stuck,
                0,
                maxWaitNanos,
                errors,
                queueing()));
    return this;
  }

  private Queueing queueing() {
    long now = clock.nanoTime();
    return new Queueing(
        workerCpu.length,
        now - startNanos,
        started,
        waited,
        waitNanos,
        busyTime.area(now),
        pendingTime.area(now),
        inQueueTime.area(now));
  }

  private Behavior<QueueCommand> onRemount(QueueRemount r) {
    List<String> problems = new ArrayList<>();
    if (!serving.isEmpty() || !pending.isEmpty()) {
      problems.add(
          "queue "
              + index
              + " (/dev/fuse): unmount with "
              + serving.size()
              + " request(s) in service and "
              + pending.size()
              + " pending: "
              + ReportLists.capped(stuckIds()));
    }
    eioProbability = 0;
    r.replyTo().tell(new MachineProtocol.Remounted(problems));
    return this;
  }

  private List<Long> stuckIds() {
    List<Long> stuck = new ArrayList<>(inService.keySet());
    pending.forEach(i -> stuck.add(i.request().id()));
    return stuck;
  }

  /** Where a woken server thread runs. */
  public interface ServerPlacement {
    /**
     * @param prev the CPU the thread slept on
     * @param waker the CPU of the thread that wakes it (busy: the waker runs there), or -1
     * @return the CPU the thread will run on
     */
    int place(int prev, int waker);
  }
}
