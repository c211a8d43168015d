package io.mqroute.actors.device;

import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * How long the device side takes to serve one request. A device is owned by one queue's poller (its
 * busy-polling threads in the DPU model, or its server threads), unless it is {@linkplain
 * #onePerMachine() one per machine}; a stateful model such as {@link HddDevice} sees the requests
 * in the order its users start them.
 */
public interface Device {
  /**
   * @param op what the request does
   * @param fileId which file
   * @param offset byte offset
   * @param length bytes
   * @param nowNanos virtual (or real) time at which service starts
   * @param rnd the run's "service" random stream
   * @return service time in nanoseconds, >= 0
   */
  long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd);

  /**
   * True when the service is CPU work on the serving queue's core (a passthrough FUSE server doing
   * the I/O itself, like libfuse's passthrough_hp), false when it is a device busy in parallel with
   * the CPUs.
   */
  default boolean onCpu() {
    return false;
  }

  /**
   * How long of {@code serviceNanos} the poller thread itself is busy; the rest is latency it does
   * not wait for (an async backend). All of it by default.
   */
  default long workerNanos(long serviceNanos) {
    return serviceNanos;
  }

  /** Whether {@link #workerNanos} is always the whole service time: the worker waits to the end. */
  default boolean holdsWorker() {
    return true;
  }

  /**
   * True for a device that is one physical unit for the whole machine (a disk has one head): every
   * queue and every worker of the machine is then given the same instance, which serialises them.
   * False for models of a device with internal parallelism, of which each queue's poller gets its
   * own instance.
   */
  default boolean onePerMachine() {
    return false;
  }

  /**
   * Whether this model gives a service time to requests of {@code op}. The latency models (fixed,
   * exponential, lognormal, empirical, dpu, cpu, null) serve every request kind with the one
   * distribution they were given, as they serve every request size with it: the spec is the
   * server's time per request, and no source the model has gives that device's time per kind. A
   * model that knows where data lies on the medium (hdd) has no model of metadata and serves data
   * only.
   */
  default boolean serves(Op op) {
    return true;
  }

  /**
   * True when a request's service time does not depend on when it is asked (no state, {@code
   * nowNanos} unused): the poller may then draw it when the server thread takes the request rather
   * than when it hands it to the device, and the draws come in the same order.
   */
  default boolean timeInvariant() {
    return false;
  }

  /** The spec string this device was built from, e.g. {@code exponential(40us)}. */
  String spec();
}
