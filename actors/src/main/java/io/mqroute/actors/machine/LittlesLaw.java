package io.mqroute.actors.machine;

import java.util.Locale;

/**
 * Little's law for one job over its whole life, which starts and ends with nothing in flight: the
 * time integral of requests in flight (L × T) must equal the sum of their latencies (λT × W)
 * exactly, in nanoseconds. A difference means a request was counted in flight without a latency or
 * the other way round.
 *
 * <p>What it can and cannot catch: both sides come from the job's own clock readings, so it checks
 * the job's accounting — a completion counted twice, an iodepth slot freed without a completion, a
 * latency measured from the wrong submission. A request that never ends keeps its job from ending;
 * that is the stall detector's report, and the law is then {@linkplain #notEvaluated() not
 * evaluated}.
 *
 * @param inFlightArea ∫ requests-in-flight dt, in request·ns
 * @param latencySum Σ (completion − submission) over every ended request, in ns
 * @param requests requests that ended (OK or error)
 * @param spanNanos from the job's start to its last completion
 * @param evaluated false for a job that did not end (stalled run): nothing was checked
 */
public record LittlesLaw(
    long inFlightArea, long latencySum, long requests, long spanNanos, boolean evaluated) {
  public LittlesLaw(long inFlightArea, long latencySum, long requests, long spanNanos) {
    this(inFlightArea, latencySum, requests, spanNanos, true);
  }

  /** The entry of a job that never ended. */
  public static LittlesLaw notEvaluated() {
    return new LittlesLaw(0, 0, 0, 0, false);
  }

  /** True if the job ended and both sides agree; false for a job that did not end. */
  public boolean holds() {
    return evaluated && inFlightArea == latencySum;
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
    if (!evaluated) {
      return "not evaluated (the job did not end)";
    }
    return String.format(
        Locale.ROOT,
        "L=%.3f, λ=%.0f/s, W=%.1fus, λW=%.3f: %s",
        meanInFlight(),
        ratePerSecond(),
        meanLatencyNanos() / 1e3,
        ratePerSecond() * meanLatencyNanos() / 1e9,
        holds() ? "holds" : "BROKEN");
  }
}
