package io.mqroute.actors.device;

import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * How long the device side takes to serve one request. A device is owned by one poller (one busy-polling
 * thread of the DPU model, or one server thread), so stateful models such as {@link HddDevice} see that
 * poller's requests in the order it serves them.
 */
public interface Device {
  /**
   * @param op      what the request does
   * @param fileId  which file
   * @param offset  byte offset
   * @param length  bytes
   * @param nowNanos virtual (or real) time at which service starts
   * @param rnd     the run's "service" random stream
   * @return service time in nanoseconds, >= 0
   */
  long serviceNanos(Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd);

  /**
   * True when the service is CPU work on the serving queue's core (a passthrough FUSE server doing the I/O
   * itself, like libfuse's passthrough_hp), false when it is a device busy in parallel with the CPUs.
   */
  default boolean onCpu() {
    return false;
  }

  /**
   * How long of {@code serviceNanos} the poller thread itself is busy; the rest is latency it does not wait
   * for (an async backend). All of it by default.
   */
  default long workerNanos(long serviceNanos) {
    return serviceNanos;
  }

  /** The spec string this device was built from, e.g. {@code exponential(40us)}. */
  String spec();
}
