package io.mqroute.policies.strategy;

/** Where a synchronous waiter resumes when its request completes ({@code fuse_request_end}). */
public enum WakePolicy {

  /**
   * Mainline {@code wake_up(&req->waitq)}: the scheduler places the waiter. {@link #wakeCpu}
   * answers its previous CPU, the target {@code select_idle_sibling} starts from; the machine moves
   * it to an idle sibling when that CPU is busy (the completing ring thread runs there).
   */
  WAITER_CPU("waiter-cpu"),

  /**
   * Seed 003 {@code wake_up_on_current_cpu} ({@code WF_CURRENT_CPU}) for {@code FR_URING}
   * synchronous requests: the waiter migrates to the completing CPU (the ring thread's), no IPI,
   * but it loses the cache locality of its old CPU when that was another one. Other requests are
   * woken as by {@link #WAITER_CPU}.
   */
  COMPLETING_CPU("completing-cpu");

  private final String spec;

  WakePolicy(String spec) {
    this.spec = spec;
  }

  /** The CPU the waiter runs on after the wake-up. */
  public int wakeCpu(int waiterCpu, int completingCpu) {
    return this == WAITER_CPU ? waiterCpu : completingCpu;
  }

  public String spec() {
    return spec;
  }

  @Override
  public String toString() {
    return spec;
  }
}
