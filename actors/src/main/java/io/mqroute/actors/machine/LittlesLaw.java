package io.mqroute.actors.machine;

import java.util.Locale;

/**
 * Little's law for one job over its whole life, which starts and ends with nothing in flight: the time
 * integral of requests in flight (L × T) must equal the sum of their latencies (λT × W) exactly, in
 * nanoseconds. A difference means a request was counted in flight without a latency or the other way round.
 *
 * @param inFlightArea ∫ requests-in-flight dt, in request·ns
 * @param latencySum   Σ (completion − submission) over every ended request, in ns
 * @param requests     requests that ended (OK or error)
 * @param spanNanos    from the job's start to its last completion
 */
public record LittlesLaw(long inFlightArea, long latencySum, long requests, long spanNanos) {
  public boolean holds() {
    return inFlightArea == latencySum;
  }

  /** Mean requests in flight (L). */
  public double meanInFlight() {
    return spanNanos == 0 ? 0 : inFlightArea / (double) spanNanos;
  }

  /** Arrival (= completion) rate λ per second. */
  public double ratePerSecond() {
    return spanNanos == 0 ? 0 : requests * 1e9 / spanNanos;
  }

  /** Mean time in the system W, in ns. */
  public double meanLatencyNanos() {
    return requests == 0 ? 0 : latencySum / (double) requests;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "L=%.3f, λ=%.0f/s, W=%.1fus, λW=%.3f: %s", meanInFlight(), ratePerSecond(),
        meanLatencyNanos() / 1e3, ratePerSecond() * meanLatencyNanos() / 1e9, holds() ? "holds" : "BROKEN");
  }
}
