package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/** Exponentially distributed service (M/M/1 theory); the mean is the only parameter. */
public final class ExponentialDevice implements StatelessDevice {
  private final long meanNanos;

  public ExponentialDevice(long meanNanos) {
    this.meanNanos = Devices.requirePositive("exponential", meanNanos);
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return Math.round(-Math.log(1.0 - rnd.nextDouble()) * meanNanos);
  }

  @Override
  public String spec() {
    return "exponential(" + Durations.format(meanNanos) + ")";
  }
}
