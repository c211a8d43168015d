package io.mqroute.cluster;

import java.security.SecureRandom;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * A child that hands every message it gets to its parent, wrapped, under a name nobody can guess.
 * All message adapters of an actor share one ref, so a reply address that must not be the actor's
 * public entry (where any peer could send it forged answers) has to be a child's.
 */
final class ReplyChild {
  private ReplyChild() {}

  static <T, C> ActorRef<T> spawn(
      ActorContext<C> ctx, String prefix, Class<T> type, Function<T, C> wrap) {
    ActorRef<C> parent = ctx.getSelf();
    return ctx.spawn(
        Behaviors.receive(type)
            .onAnyMessage(
                m -> {
                  parent.tell(wrap.apply(m));
                  return Behaviors.same();
                })
            .build(),
        prefix + "-" + Long.toHexString(new SecureRandom().nextLong()));
  }
}
