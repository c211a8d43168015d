package io.mqroute.runtime.mm1;

import org.HdrHistogram.Histogram;

/**
 * What the M/M/1 model measured.
 *
 * @param completed requests completed
 * @param digest {@link io.mqroute.runtime.RunDigest} of (id, latency) in completion order
 * @param latencySumNanos exact sum of sojourn times
 * @param latencies histogram of sojourn times in nanoseconds
 * @param lastCompletionNanos clock reading at the last completion
 */
public record Mm1Result(
    long completed,
    long digest,
    long latencySumNanos,
    Histogram latencies,
    long lastCompletionNanos) {

  public double meanSojournNanos() {
    return (double) latencySumNanos / completed;
  }
}
