package io.mqroute.runtime.mm1;

import java.util.SplittableRandom;

/**
 * Parameters of the M/M/1 calibration model: Poisson arrivals, one FIFO server with exponential
 * service times.
 *
 * @param seed experiment seed; arrivals and service draw from separate streams derived from it
 * @param requests number of requests to complete
 * @param meanInterarrivalNanos 1/λ
 * @param meanServiceNanos 1/μ
 */
public record Mm1Params(
    long seed, int requests, double meanInterarrivalNanos, double meanServiceNanos) {
  private static final long ARRIVAL_STREAM = 0x41525249L;
  private static final long SERVICE_STREAM = 0x53455256L;

  public Mm1Params {
    if (requests < 1 || meanInterarrivalNanos <= 0 || meanServiceNanos <= 0) {
      throw new IllegalArgumentException("invalid M/M/1 parameters");
    }
  }

  /** λ = 20k/s, μ = 25k/s: ρ = 0.8, theoretical mean sojourn 200 µs. */
  public static Mm1Params rho08(long seed, int requests) {
    return new Mm1Params(seed, requests, 50_000.0, 40_000.0);
  }

  /** λ = 12.5k/s, μ = 25k/s: ρ = 0.5, theoretical mean sojourn 80 µs. */
  public static Mm1Params rho05(long seed, int requests) {
    return new Mm1Params(seed, requests, 80_000.0, 40_000.0);
  }

  public double utilisation() {
    return meanServiceNanos / meanInterarrivalNanos;
  }

  /** 1/(μ−λ) in nanoseconds. */
  public double theoreticalMeanSojournNanos() {
    return 1.0 / (1.0 / meanServiceNanos - 1.0 / meanInterarrivalNanos);
  }

  public SplittableRandom arrivalRandom() {
    return new SplittableRandom(seed ^ ARRIVAL_STREAM);
  }

  public SplittableRandom serviceRandom() {
    return new SplittableRandom(seed ^ SERVICE_STREAM);
  }

  /**
   * An exponential sample rounded to whole nanoseconds. StrictMath, not Math: its results are
   * specified bit for bit, so the model gives the same digest in every JVM.
   */
  public static long exponentialNanos(SplittableRandom random, double mean) {
    return Math.round(-mean * StrictMath.log1p(-random.nextDouble()));
  }
}
