package io.mqroute.actors.machine;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * A {@link Receive} whose hot messages are matched by the actor's own {@code instanceof} tests and
 * everything else by a built receive (issue #18): the builder's receive tries its cases in turn and
 * calls each handler through one shared call site, a few nanoseconds per message on the request
 * path's fifteen hops; the actor's own code is one virtual call and inlined tests.
 */
abstract class SwitchReceive<T> extends Receive<T> {
  private final Receive<T> rest;

  /**
   * @param rest what {@link #hot} does not match, and every signal
   */
  SwitchReceive(Receive<T> rest) {
    this.rest = rest;
  }

  /** The behaviour for a hot message, or null when {@code message} is not one. */
  protected abstract Behavior<T> hot(T message);

  @Override
  public final Behavior<T> receiveMessage(T message) throws Exception {
    Behavior<T> next = hot(message);
    return next != null ? next : rest.receiveMessage(message);
  }

  @Override
  public final Behavior<T> receiveSignal(Signal signal) throws Exception {
    return rest.receiveSignal(signal);
  }
}
