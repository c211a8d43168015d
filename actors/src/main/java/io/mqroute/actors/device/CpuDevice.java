package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * A passthrough FUSE server (libfuse passthrough_hp) that does the I/O itself on the core its queue
 * thread runs on: the service is CPU work that competes with the application and with other queues
 * on that core.
 */
public final class CpuDevice implements StatelessDevice {
  private final long costNanos;

  public CpuDevice(long costNanos) {
    this.costNanos = Devices.requireNonNegative("cpu cost", costNanos);
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return costNanos;
  }

  @Override
  public boolean onCpu() {
    return true;
  }

  @Override
  public String spec() {
    return "cpu(" + Durations.format(costNanos) + ")";
  }
}
