package io.mqroute.runtime.mm1;

import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * M/M/1 calibration model in typed actors: a submitter and a server, spawned under a root. Known
 * answers: mean sojourn 1/(μ−λ), and (for the same seed) the same digest as the hand-written DES in
 * the bench module.
 */
public final class Mm1Model {
  private Mm1Model() {}

  /**
   * The root behaviour; completes {@code result} on the clock's thread when all requests are done.
   */
  public static Behavior<Void> root(Mm1Params params, CompletableFuture<Mm1Result> result) {
    return Behaviors.setup(
        ctx -> {
          ActorRef<Mm1Messages.ServerCommand> server =
              ctx.spawn(Mm1Server.create(params), "server", DispatcherSelector.sameAsParent());
          ctx.spawn(
              Mm1Submitter.create(server, params, result),
              "submitter",
              DispatcherSelector.sameAsParent());
          return Behaviors.empty();
        });
  }
}
