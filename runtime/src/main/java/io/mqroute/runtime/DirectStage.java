package io.mqroute.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Re-delivers a {@link CompletionStage}'s outcome synchronously on the thread that completes it.
 *
 * <p>Pekko's javadsl returns Scala futures converted by {@code scala.jdk.FutureConverters}; that
 * {@code CompletableFuture} subclass turns {@code whenComplete}, {@code thenApply}, ... into their
 * {@code *Async} forms, so callbacks hop to {@code ForkJoinPool.commonPool()}. In virtual time such
 * a hop is a foreign task and breaks determinism (or hangs a run). It affects {@code
 * Sink.foreach}'s materialized value, {@code SourceQueueWithComplete.offer}, {@code
 * watchCompletion}, {@code AskPattern.ask} and {@code ActorContext.pipeToSelf} on any of those.
 * Wrap such stages: {@code ctx.pipeToSelf(DirectStage.of(stage), f)}. Harmless in real time.
 */
public final class DirectStage {
  private DirectStage() {}

  /**
   * A plain {@link CompletableFuture} completed, on the completing thread, with {@code stage}'s
   * outcome.
   */
  public static <T> CompletableFuture<T> of(CompletionStage<T> stage) {
    CompletableFuture<T> direct = new CompletableFuture<>();
    // The Scala subclass redirects only the non-async forms; *Async with an explicit caller-runs
    // executor runs the
    // callback on the thread that completes the stage.
    stage.whenCompleteAsync(
        (value, failure) -> {
          if (failure != null) {
            direct.completeExceptionally(failure);
          } else {
            direct.complete(value);
          }
        },
        Runnable::run);
    return direct;
  }
}
