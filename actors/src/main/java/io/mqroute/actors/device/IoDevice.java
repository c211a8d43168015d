package io.mqroute.actors.device;

import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.util.concurrent.CompletionStage;
import java.util.random.RandomGenerator;

/**
 * A device that does real I/O (a node's {@code file} backend) instead of returning a modelled
 * service time: the poller hands it the request and takes the result when it arrives, on the real
 * clock only. Its {@link #serviceNanos} is never asked.
 */
public interface IoDevice extends Device {
  /** What one I/O did: the status, and a data-carrying read's bytes (null otherwise). */
  record Result(Status status, byte[] data) {}

  /** Starts {@code r}'s I/O off the caller's thread; completes with its result. */
  CompletionStage<Result> execute(Request r);

  @Override
  default long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    throw new UnsupportedOperationException(spec() + " does real I/O: it has no service time");
  }
}
