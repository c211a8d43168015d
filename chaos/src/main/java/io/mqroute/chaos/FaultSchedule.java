package io.mqroute.chaos;

import io.mqroute.actors.machine.Fault;

/**
 * Random fault windows of one kind: they open at exponentially distributed gaps of mean {@code
 * everyNanos} on a queue chosen uniformly, stay open {@code forNanos}, and set the fault to {@code
 * value}.
 */
public record FaultSchedule(Fault.Kind kind, long everyNanos, long forNanos, double value) {
  public FaultSchedule {
    if (everyNanos < 0 || forNanos < 0) {
      throw new IllegalArgumentException("fault intervals must be >= 0");
    }
    new Fault(kind, value); // validates the value
  }

  public boolean enabled() {
    return everyNanos > 0 && forNanos > 0;
  }
}
