package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/** Every request takes the same time: M/D/1 service, the DPU's 40 µs 4k baseline (seed 001). */
public final class FixedDevice implements StatelessDevice {
  private final long nanos;

  public FixedDevice(long nanos) {
    this.nanos = Devices.requireNonNegative("fixed", nanos);
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return nanos;
  }

  @Override
  public String spec() {
    return "fixed(" + Durations.format(nanos) + ")";
  }
}
