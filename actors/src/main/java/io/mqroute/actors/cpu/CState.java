package io.mqroute.actors.cpu;

/**
 * One idle state: entered when the core has been idle for at least {@code residencyNanos}, left
 * with an extra {@code exitNanos} before the next piece of work runs (intel_idle's exit_latency /
 * target_residency).
 */
public record CState(String name, long exitNanos, long residencyNanos) {
  public CState {
    if (exitNanos < 0 || residencyNanos < 0) {
      throw new IllegalArgumentException("C-state " + name + ": exit and residency must be >= 0");
    }
  }
}
