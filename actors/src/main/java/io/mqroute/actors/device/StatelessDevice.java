package io.mqroute.actors.device;

/**
 * A latency model with no state: a request's service time depends only on the draw, never on when
 * it is asked ({@link Device#timeInvariant()}).
 */
public interface StatelessDevice extends Device {
  @Override
  default boolean timeInvariant() {
    return true;
  }
}
