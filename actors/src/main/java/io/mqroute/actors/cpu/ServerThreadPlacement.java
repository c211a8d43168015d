package io.mqroute.actors.cpu;

/**
 * Where try_to_wake_up puts a woken FUSE server thread that is not bound to a CPU (a libfuse worker
 * asleep in read(2) on /dev/fuse): select_task_rq_fair for a plain (not WF_SYNC) wake-up from a
 * thread running on {@code waker}. wake_affine_idle takes the thread's previous CPU when it is
 * idle; select_idle_sibling then keeps an idle target, else scans the LLC from target + 1 for an
 * idle CPU, else stays on the target. The waker's CPU is never idle (the waker runs there). When no
 * CPU is idle the previous CPU is kept (wake_affine_weight, which can also pick the waker's CPU, is
 * not modelled: the same simplification as {@link WakeTargets}).
 */
public final class ServerThreadPlacement {
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
    return prev;
  }

  private boolean available(int cpu, int waker) {
    return cpu != waker && idle.idle(cpu);
  }
}
