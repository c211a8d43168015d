package io.mqroute.actors.machine;

import java.util.Locale;

/**
 * Little's law for one job over its measurement window (after ramp_time, until runtime= or the last
 * completion): the time-average number of requests in flight, L, from the job's own iodepth slots,
 * against λ × W from what the run reports — the completions fio counts in the window and their mean
 * latency ({@code total_ios} + errors, {@code lat} mean).
 *
 * <p>The two sides differ only by the requests that cross the window's edges: one in flight when
 * the window opens adds its time before the window to W but not to L; one in flight when it closes
 * adds its time in the window to L but is not counted in λ. The job knows their submission times,
 * so it measures that difference ({@code edgeArea}) and the law must hold up to the rounding of the
 * mean: ∫ in flight dt = Σ latency + edges. Unlike the identity of one counter with itself, this
 * compares two accounts kept apart: it fails when the report misses or double-counts a completion,
 * measures a latency from the wrong moment (from dispatch instead of submission), or when the job
 * frees a slot without a completion or keeps one after it.
 *
 * @param requests every request the job ended, ramp_time and the drain after runtime= included
 * @param spanNanos the measurement window's length T
 * @param inFlightArea ∫ requests in flight dt over the window, in request·ns (L × T)
 * @param windowRequests requests that ended in the window, as the report counts them (λ × T)
 * @param latencySum Σ of their latencies in ns, from the report's means (λ × T × W)
 * @param edgeArea the in-flight time of requests crossing the window's edges: their time in the
 *     window for those still in flight at its end, less their time before it for those in flight at
 *     its start
 * @param evaluated false for a job that did not end (stalled run): nothing was checked
 */
public record LittlesLaw(
    long requests,
    long spanNanos,
    long inFlightArea,
    long windowRequests,
    double latencySum,
    long edgeArea,
    boolean evaluated) {

  /**
   * What rounding may leave between the sides: the report's mean latency is a running double
   * (relative error far below 1e-9 per request), so a part per million of the latency sum plus 1
   * request·ns.
   */
  static final double RELATIVE_TOLERANCE = 1e-6;

  static final double ABSOLUTE_TOLERANCE = 1;

  /** A job that ended: both sides measured. */
  public LittlesLaw(
      long requests,
      long spanNanos,
      long inFlightArea,
      long windowRequests,
      double latencySum,
      long edgeArea) {
    this(requests, spanNanos, inFlightArea, windowRequests, latencySum, edgeArea, true);
  }

  /** The entry of a job that never ended. */
  public static LittlesLaw notEvaluated() {
    return new LittlesLaw(0, 0, 0, 0, 0, 0, false);
  }

  /** ∫ in flight dt − (Σ latency + edges): 0 when the law holds. */
  public double residual() {
    return inFlightArea - latencySum - edgeArea;
  }

  /** True if the job ended and both sides agree; false for a job that did not end. */
  public boolean holds() {
    return evaluated
        && Math.abs(residual()) <= RELATIVE_TOLERANCE * Math.abs(latencySum) + ABSOLUTE_TOLERANCE;
  }

  /** Mean requests in flight over the window (L). */
  public double meanInFlight() {
    return spanNanos == 0 ? 0 : inFlightArea / (double) spanNanos;
  }

  /** Completion rate over the window, λ per second. */
  public double ratePerSecond() {
    return spanNanos == 0 ? 0 : windowRequests * 1e9 / spanNanos;
  }

  /** Mean latency W of the window's completions, in ns. */
  public double meanLatencyNanos() {
    return windowRequests == 0 ? 0 : latencySum / windowRequests;
  }

  /** λ × W: the mean in flight the report implies. */
  public double lambdaW() {
    return spanNanos == 0 ? 0 : latencySum / spanNanos;
  }

  /** The edges' share of L: what λ × W leaves out by construction. */
  public double edgeInFlight() {
    return spanNanos == 0 ? 0 : edgeArea / (double) spanNanos;
  }

  /** Pooled with another replication of the same job: sums; it holds only if both did. */
  public LittlesLaw plus(LittlesLaw o) {
    if (!evaluated || !o.evaluated) {
      return evaluated ? this : o;
    }
    return new LittlesLaw(
        requests + o.requests,
        spanNanos + o.spanNanos,
        inFlightArea + o.inFlightArea,
        windowRequests + o.windowRequests,
        latencySum + o.latencySum,
        edgeArea + o.edgeArea);
  }

  @Override
  public String toString() {
    if (!evaluated) {
      return "not evaluated (the job did not end)";
    }
    return String.format(
        Locale.ROOT,
        "L=%.3f, λ=%.0f/s, W=%.1fus, λW=%.3f, edges %+.3f: %s",
        meanInFlight(),
        ratePerSecond(),
        meanLatencyNanos() / 1e3,
        lambdaW(),
        edgeInFlight(),
        holds() ? "holds" : "BROKEN");
  }
}
