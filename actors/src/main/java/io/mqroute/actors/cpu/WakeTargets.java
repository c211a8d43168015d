package io.mqroute.actors.cpu;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Where try_to_wake_up puts a woken application thread: select_task_rq_fair's fast path,
 * wake_affine_idle and select_idle_sibling (kernel/sched/fair.c), over the scheduler state they
 * read without locks — whether a CPU is idle (rq->curr == rq->idle), the task's CPU (task_cpu) and
 * the task's p->recent_used_cpu.
 *
 * <p>Why it matters (seed 003): a plain {@code wake_up} from a fuse-over-io-uring ring thread runs
 * on the waiter's own CPU, which is busy with that ring thread; select_idle_sibling then moves the
 * waiter to an idle CPU of the same LLC, paying a remote wake-up, the idle CPU's C-state exit and a
 * cold cache, and recent_used_cpu makes the task ping-pong between two CPUs. {@code
 * wake_up_on_current_cpu} (WF_CURRENT_CPU) skips all of it. select_idle_sibling's per-cpu kthread
 * exception ("An obvious example of this pattern is IO completions") keeps the waiter on its CPU
 * when the waker is a kworker on that CPU: virtio-fs ends requests in done_work (a kworker),
 * fuse-over-io-uring in the ring thread (a user thread).
 *
 * <p>One instance per machine, shared by the Core actors (idle state), the Router (the waker's
 * decision) and the Job actors (their task_cpu), as task_struct and the runqueues are shared in the
 * kernel. Reads are as racy as the kernel's; in virtual time everything runs on one thread, so
 * decisions are deterministic. The LLC of a CPU is its NUMA node (no SMT and one LLC per node are
 * modelled). Not modelled: SMT (select_idle_core / select_idle_smt), SIS_UTIL's scan-depth limit,
 * wake_affine_weight's load comparison (the waiter's previous CPU is the target when the waker's
 * CPU is busy) and wake_wide.
 *
 * <p>vCPU packing ({@code machine.kernel.vcpu-pack}): some guest kernels (this project's 2-vCPU
 * machine boots one with {@code sched_vcpu_pack=15}, function {@code vcpu_pack_room} in its
 * kallsyms; not in mainline) keep a woken task on its busy previous CPU rather than wake a halted
 * vCPU: measured there, a task woken by the only thread on its previous CPU stays on that CPU (99.9
 * % of wake-ups, real-fuse/wake-probe.c), one woken beside a second runnable task goes to the idle
 * vCPU, and one whose previous CPU is idle goes back to it as in mainline. It is the
 * per-cpu-kthread exception above without the kthread.
 *
 * <p>With {@code machine.kernel.vcpu-pack-sleeping-waker} the packing holds only when the waker
 * sleeps next, as its queue tells ({@code Ended.wakerRunsOn}): a fuse-over-io-uring ring thread
 * that wakes its reader with other requests of its ring still to serve or commit runs on, and the
 * reader goes to the idle vCPU; so does a /dev/fuse worker with a pending request to take. Measured
 * on the same guest from /proc/TID/sched (real-fuse/sched-counters.py,
 * data/2026-12-05/sched-counters.txt): fio migrates at 0.97 of its sleeps at io_uring iodepth 4 and
 * 8 (0.208 and 0.114 migrations per request against 0.215 and 0.118 voluntary switches) and at 0.02
 * at iodepth 1 (0.015 against 0.666), where its ring thread has one request at a time.
 */
public final class WakeTargets {
  /** Work items running or queued per CPU, as its Core last published them; 0 means idle. */
  private final AtomicIntegerArray busy;

  /**
   * Per CPU, the end of work it runs without a queue behind it, published when it starts (the core
   * is not told when it ends): the CPU is busy until then. {@link Long#MIN_VALUE} for none.
   */
  private final AtomicLongArray busyUntil;

  /** The machine's clock, against which {@link #busyUntil} is read. */
  private final LongSupplier clock;

  private final int[] llc;
  private final AtomicIntegerArray taskCpu;
  private final AtomicIntegerArray recentUsed;

  /**
   * Per task, pieces of its work queued or running on a core (submissions, reaps after a wake-up):
   * the task is awake while there are any, and sleeps — waiting in request_wait_answer or
   * io_uring_enter — when none.
   */
  private final AtomicIntegerArray work;

  /**
   * Per CPU, awake tasks whose task_cpu it is: the CPU runs them even between two pieces of their
   * work (an application goes from reaping a completion straight to its next submission), so it is
   * not idle.
   */
  private final AtomicIntegerArray awake;

  /** Per CPU, 1 while it is offline (CPU hotplug): never a wake-up target. */
  private final AtomicIntegerArray offline;

  private final int[][] allowed;

  /** {@code machine.kernel.vcpu-pack}: the waker's CPU, held by the waker alone, keeps the task. */
  private final boolean vcpuPack;

  /**
   * {@code machine.kernel.vcpu-pack-sleeping-waker}: only when the waker sleeps next (its queue
   * says so in the wake-up: {@code Ended.wakerRunsOn}).
   */
  private final boolean packNeedsSleepingWaker;

  /**
   * @param cpuToLlc per CPU, its last-level-cache domain (the NUMA node here)
   * @param taskCpus per task (fio job clone), the CPU it starts on
   * @param taskAllowed per task, the CPUs it may run on (cpus_allowed)
   * @param clock the machine's clock ({@code NanoClock::nanoTime}), for work published with its end
   *     ({@link #load(int, int, long)})
   * @param vcpuPack the guest kernel packs wake-ups onto a vCPU its waker holds alone (class
   *     comment)
   * @param packNeedsSleepingWaker with {@code vcpuPack}: the waker's CPU keeps the task only when
   *     the waker sleeps next ({@link #wake(int, int, int, boolean, boolean)}, class comment)
   */
  public WakeTargets(
      int[] cpuToLlc,
      int[] taskCpus,
      int[][] taskAllowed,
      LongSupplier clock,
      boolean vcpuPack,
      boolean packNeedsSleepingWaker) {
    this.vcpuPack = vcpuPack;
    this.packNeedsSleepingWaker = vcpuPack && packNeedsSleepingWaker;
    if (taskCpus.length != taskAllowed.length) {
      throw new IllegalArgumentException("one start CPU and one allowed set per task");
    }
    this.busy = new AtomicIntegerArray(cpuToLlc.length);
    this.busyUntil = new AtomicLongArray(cpuToLlc.length);
    for (int c = 0; c < cpuToLlc.length; c++) {
      busyUntil.set(c, Long.MIN_VALUE);
    }
    this.clock = clock;
    this.llc = cpuToLlc.clone();
    this.taskCpu = new AtomicIntegerArray(taskCpus);
    this.recentUsed = new AtomicIntegerArray(taskCpus.length);
    this.work = new AtomicIntegerArray(taskCpus.length);
    this.awake = new AtomicIntegerArray(cpuToLlc.length);
    this.offline = new AtomicIntegerArray(cpuToLlc.length);
    for (int t = 0; t < taskCpus.length; t++) {
      recentUsed.set(t, taskCpus[t]); // no earlier CPU to go back to on the first wake-up
    }
    this.allowed = taskAllowed.clone();
  }

  /** The CPU now has {@code items} pieces of work running or queued (0: it is idle). */
  public void load(int cpu, int items) {
    if (cpu >= 0) {
      busy.setRelease(cpu, items);
    }
  }

  /**
   * The CPU now has {@code items} pieces of work running or queued, and besides them runs one whose
   * end is {@code until} ({@link Long#MIN_VALUE}: none): idle once the clock has reached it with no
   * other item.
   */
  public void load(int cpu, int items, long until) {
    if (cpu >= 0) {
      // a plain publication, as rq->curr is: release stores order it without the full fence of a
      // volatile store, which every CPU item paid twice (the readers' reads are racy anyway)
      busy.setRelease(cpu, items);
      busyUntil.setRelease(cpu, until);
    }
  }

  /**
   * available_idle_cpu: nothing running and nothing queued, and no awake task on it. A CPU whose
   * last item ends at this very instant is not idle yet: the thread that ran it is still rq->curr
   * there (it is issuing that item's wake-up or return; only its schedule() switches to the idle
   * task, after the end), so idle means strictly after the end.
   */
  public boolean idle(int cpu) {
    return busy.get(cpu) == 0
        && awake.get(cpu) == 0
        && (busyUntil.get(cpu) == Long.MIN_VALUE || busyUntil.get(cpu) < clock.getAsLong());
  }

  /**
   * Runnable work on the CPU now, as wake_affine_weight's load: its items running or queued, and
   * the awake tasks whose CPU it is. A core that starts queued work on arrival (the model's
   * plan-ahead) publishes no count: it is off on machines that ask for this.
   */
  public int runnable(int cpu) {
    return busy.get(cpu) + awake.get(cpu);
  }

  /** CPU hotplug: an offline CPU is not in the sched domains select_idle_sibling searches. */
  public void setOnline(int cpu, boolean online) {
    offline.set(cpu, online ? 0 : 1);
  }

  /** select_fallback_rq moved the task off an offline CPU. */
  public void moveTask(int task, int cpu) {
    int old = taskCpu.getAndSet(task, cpu);
    if (old != cpu && work.get(task) > 0) {
      awake.decrementAndGet(old);
      awake.incrementAndGet(cpu);
    }
  }

  /** task_cpu(p): where the task last ran and where it submits from. */
  public int taskCpu(int task) {
    return taskCpu.get(task);
  }

  public int tasks() {
    return allowed.length;
  }

  /** A piece of the task's work (a submission, a reap) has been handed to a core. */
  public void workQueued(int task) {
    if (work.incrementAndGet(task) == 1) {
      awake.incrementAndGet(taskCpu.get(task));
    }
  }

  /**
   * A piece of the task's work has run; with none left the task sleeps until a completion wakes it.
   */
  public void workDone(int task) {
    if (work.decrementAndGet(task) == 0) {
      awake.decrementAndGet(taskCpu.get(task)); // task_cpu changes only while the task sleeps
    }
  }

  /** The task is awake: a further completion is reaped where it runs, without a wake-up. */
  public boolean running(int task) {
    return work.get(task) > 0;
  }

  /**
   * A plain wake-up of {@code task}, which sleeps on {@code prev}, issued by a thread running on
   * {@code waker} (that CPU is busy: the waker runs there). Records the new task_cpu and
   * recent_used_cpu.
   *
   * @param kworker the waker is a per-cpu kthread (a kworker running done_work), not a user thread
   * @return the CPU the task will run on
   */
  public int wake(int task, int prev, int waker, boolean kworker) {
    return wake(task, prev, waker, kworker, false);
  }

  /**
   * @param wakerRunsOn the waker has more work of its own right after the wake-up (it does not
   *     sleep next): with {@code vcpu-pack-sleeping-waker} its CPU does not keep the task
   */
  public int wake(int task, int prev, int waker, boolean kworker, boolean wakerRunsOn) {
    if (prev == waker && offline.get(prev) == 0 && (kworker || packs(prev, wakerRunsOn))) {
      // is_per_cpu_kthread(current) && prev == smp_processor_id() && this_rq()->nr_running <= 1:
      // stack on prev. nr_running counts tasks: the kworker ends every harvested request in one
      // done_work run, so the other completions queued on this core are the same task and do not
      // count. vCPU packing stacks the same way behind any waker (packs)
      taskCpu.set(task, prev);
      return prev;
    }
    // wake_affine_idle: the waker's CPU is not idle and this is not a sync wake-up, so the previous
    // CPU is the target when idle; otherwise wake_affine_weight, modelled as keeping the previous
    // CPU as the target
    int target = prev;
    int cpu = selectIdleSibling(task, prev, target, waker);
    taskCpu.set(task, cpu);
    return cpu;
  }

  /**
   * vCPU packing: the CPU is held by the waker alone — no awake application task on it (the waker's
   * own queued pieces are the waker, as for the kworker above) — so it keeps the task.
   */
  private boolean packs(int cpu, boolean wakerRunsOn) {
    return vcpuPack && awake.get(cpu) == 0 && !(packNeedsSleepingWaker && wakerRunsOn);
  }

  /** wake_up_on_current_cpu (WF_CURRENT_CPU): the waker's CPU if the task may run there. */
  public int wakeOnCurrent(int task, int prev, int waker) {
    if (!allows(task, waker) || offline.get(waker) != 0) {
      return wake(task, prev, waker, false);
    }
    taskCpu.set(task, waker);
    return waker;
  }

  private int selectIdleSibling(int task, int prev, int target, int waker) {
    if (available(target, waker)) {
      return target;
    }
    // the previous CPU's check needs prev != target; with target == prev it is the first check
    int recent = recentUsed.get(task);
    recentUsed.set(task, prev);
    if (recent != prev
        && recent != target
        && llc[recent] == llc[target]
        && available(recent, waker)
        && allows(task, recent)) {
      return recent;
    }
    // select_idle_cpu: for_each_cpu_wrap(cpu, sched_domain_span(sd_llc), target + 1)
    int n = llc.length;
    for (int i = 1; i < n; i++) {
      int c = (target + i) % n;
      if (llc[c] == llc[target] && available(c, waker) && allows(task, c)) {
        return c;
      }
    }
    return target;
  }

  private boolean available(int cpu, int waker) {
    return cpu != waker && offline.get(cpu) == 0 && idle(cpu);
  }

  private boolean allows(int task, int cpu) {
    for (int c : allowed[task]) {
      if (c == cpu) {
        return true;
      }
    }
    return false;
  }
}
