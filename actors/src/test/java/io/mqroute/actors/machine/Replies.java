package io.mqroute.actors.machine;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** A test's reply address on the simulation's dispatcher: the first reply completes a future. */
final class Replies {
  private Replies() {}

  static <T> ActorRef<T> into(
      ActorContext<?> ctx, Class<T> type, CompletableFuture<T> reply, String name) {
    return ctx.spawn(
        Behaviors.receive(type)
            .onAnyMessage(
                m -> {
                  reply.complete(m);
                  return Behaviors.same();
                })
            .build(),
        name,
        DispatcherSelector.sameAsParent());
  }
}
