package io.mqroute.runtime;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.dispatch.ExecutionContexts;
import scala.concurrent.ExecutionContextExecutor;

/**
 * Futures completed by a timer of the system's scheduler, for {@code mapAsync} stages and device
 * models that need "this result, after that delay". Follows virtual time in {@link
 * ClockMode#VIRTUAL} and the wall clock otherwise. Prefer typed timers ({@code
 * Behaviors.withTimers}) inside actors.
 */
final class SimFutures {
  private static final ExecutionContextExecutor CALLER_RUNS =
      ExecutionContexts.fromExecutor(Runnable::run);

  private SimFutures() {}

  /**
   * A plain {@link CompletableFuture} completed with {@code value.get()} on the scheduler after
   * {@code delay}.
   */
  static <T> CompletableFuture<T> after(
      ClassicActorSystemProvider system, Duration delay, Supplier<T> value) {
    CompletableFuture<T> future = new CompletableFuture<>();
    system
        .classicSystem()
        .scheduler()
        .scheduleOnce(
            delay,
            () -> {
              try {
                future.complete(value.get());
              } catch (RuntimeException e) {
                future.completeExceptionally(e);
              }
            },
            CALLER_RUNS);
    return future;
  }
}
