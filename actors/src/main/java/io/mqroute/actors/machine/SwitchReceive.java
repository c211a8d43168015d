package io.mqroute.actors.machine;

import java.util.function.Function;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Signal;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * A {@link Receive} whose hot messages are matched by the actor's own {@code instanceof} tests and
 * everything else by a built receive (issue #18): the builder's receive tries its cases in turn and
 * calls each handler through one shared call site, a few nanoseconds per message on the request
 * path's fifteen hops; the actor's own code is one call and inlined tests. The built receive holds
 * only what {@code hot} does not match.
 */
final class SwitchReceive<T> extends Receive<T> {
  private final Function<T, Behavior<T>> hot;
  private final Receive<T> rest;

  private SwitchReceive(Function<T, Behavior<T>> hot, Receive<T> rest) {
    this.hot = hot;
    this.rest = rest;
  }

  /**
   * @param hot the behaviour for a hot message, or null when the message is not one
   * @param rest what {@code hot} does not match, and every signal
   */
  static <T> Receive<T> of(Function<T, Behavior<T>> hot, Receive<T> rest) {
    return new SwitchReceive<>(hot, rest);
  }

  @Override
  public Behavior<T> receiveMessage(T message) throws Exception {
    Behavior<T> next = hot.apply(message);
    return next != null ? next : rest.receiveMessage(message);
  }

  @Override
  public Behavior<T> receiveSignal(Signal signal) throws Exception {
    return rest.receiveSignal(signal);
  }
}
