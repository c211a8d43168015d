package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * A DPU virtio-fs device (seeds 000/001, BlueField-3): one busy-polling thread per queue spends
 * {@code cost} on each descriptor (fetch, translate, submit to the backend) and then moves on; the
 * backend completes the I/O after a log-normal latency ({@code median}, {@code sigma}) without
 * holding the thread. So the thread bounds throughput at 1/cost per queue while the latency is the
 * backend's.
 */
public final class DpuDevice implements StatelessDevice {
  private final long costNanos;
  private final long medianNanos;
  private final double sigma;

  public DpuDevice(long costNanos, long medianNanos, double sigma) {
    this.costNanos = Devices.requirePositive("dpu cost", costNanos);
    this.medianNanos = Devices.requirePositive("dpu latency median", medianNanos);
    if (!(sigma >= 0 && sigma <= 5)) {
      throw new IllegalArgumentException("dpu sigma must be in [0, 5], was " + sigma);
    }
    this.sigma = sigma;
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return costNanos + Math.round(medianNanos * Math.exp(sigma * rnd.nextGaussian()));
  }

  @Override
  public long workerNanos(long serviceNanos) {
    return Math.min(costNanos, serviceNanos);
  }

  @Override
  public boolean holdsWorker() {
    return false;
  }

  @Override
  public String spec() {
    return "dpu("
        + Durations.format(costNanos)
        + ", "
        + Durations.format(medianNanos)
        + ", "
        + sigma
        + ")";
  }
}
