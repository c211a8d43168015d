package io.mqroute.actors.cpu;

/**
 * Where try_to_wake_up puts a woken FUSE server thread that is not bound to a CPU (a libfuse worker
 * asleep in read(2) on /dev/fuse): select_task_rq_fair for a plain (not WF_SYNC) wake-up from a
 * thread running on {@code waker}. wake_affine_idle takes the thread's previous CPU when it is
 * idle; select_idle_sibling then keeps an idle target, else scans the LLC from target + 1 for an
 * idle CPU. The waker's CPU is never idle (the waker runs there). When no CPU is idle,
 * wake_affine_weight picks between the waker's CPU and the previous one by their load: the waker's
 * when its load with the woken thread added is below the previous CPU's, with the previous CPU
 * favoured by half of the LLC domain's imbalance_pct (117: 100 against 108). The load is the
 * runnable work each CPU has now (items running or queued, awake tasks), not PELT's averaged
 * cpu_load, and the woken thread's own load is not on the previous CPU (it slept there). Without it
 * every worker woken while the job's CPU submits would queue behind the others on one CPU, while
 * the real pool keeps both CPUs busy (issue 21, io_uring iodepth 4: EXPERIMENTS.md,
 * real-fuse-this-vm, mechanism 4).
 */
public final class ServerThreadPlacement {
  /** wake_affine_weight's bias for the previous CPU: 100 + (imbalance_pct - 100) / 2. */
  private static final int PREV_BIAS = 108;

  private final WakeTargets idle;
  private final int[] llc;

  /**
   * @param idle the machine's published idle state
   * @param cpuToLlc per CPU, its last-level-cache domain
   */
  public ServerThreadPlacement(WakeTargets idle, int[] cpuToLlc) {
    this.idle = idle;
    this.llc = cpuToLlc.clone();
  }

  /**
   * @param prev the CPU the thread slept on
   * @param waker the CPU the waking thread runs on, or -1 for none
   * @return the CPU the thread runs on
   */
  public int place(int prev, int waker) {
    if (available(prev, waker)) {
      return prev;
    }
    int n = llc.length;
    for (int i = 1; i < n; i++) {
      int c = (prev + i) % n;
      if (llc[c] == llc[prev] && available(c, waker)) {
        return c;
      }
    }
    if (waker >= 0
        && waker != prev
        && llc[waker] == llc[prev]
        && (idle.runnable(waker) + 1) * 100 < idle.runnable(prev) * PREV_BIAS) {
      return waker;
    }
    return prev;
  }

  private boolean available(int cpu, int waker) {
    return cpu != waker && idle.idle(cpu);
  }
}
