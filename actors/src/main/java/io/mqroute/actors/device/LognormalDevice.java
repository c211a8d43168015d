package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * Log-normal service: {@code median * exp(sigma * Z)}. Storage latencies are right-skewed; sigma
 * 0.5 gives a p99 about 3.2x the median.
 */
public final class LognormalDevice implements StatelessDevice {
  private final long medianNanos;
  private final double sigma;

  public LognormalDevice(long medianNanos, double sigma) {
    this.medianNanos = Devices.requirePositive("lognormal median", medianNanos);
    if (!(sigma >= 0 && sigma <= 5)) {
      throw new IllegalArgumentException("lognormal sigma must be in [0, 5], was " + sigma);
    }
    this.sigma = sigma;
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return Math.round(medianNanos * Math.exp(sigma * rnd.nextGaussian()));
  }

  @Override
  public String spec() {
    return "lognormal(" + Durations.format(medianNanos) + ", " + sigma + ")";
  }
}
