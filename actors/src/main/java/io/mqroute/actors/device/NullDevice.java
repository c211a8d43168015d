package io.mqroute.actors.device;

import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/** Completes at once: measures the router and the queues alone. */
public final class NullDevice implements StatelessDevice {
  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return 0;
  }

  @Override
  public String spec() {
    return "null";
  }
}
