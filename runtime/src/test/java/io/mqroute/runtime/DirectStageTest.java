package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.dispatch.Futures;
import org.junit.jupiter.api.Test;
import scala.concurrent.Promise;
import scala.jdk.javaapi.FutureConverters;

/** The thread hop DirectStage exists for, on the same kind of stage Pekko's javadsl returns. */
class DirectStageTest {

  @Test
  void convertedScalaStageRunsEvenCompletedCallbacksOnAnotherThread() throws Exception {
    CompletionStage<String> converted = FutureConverters.asJava(Futures.successful("x"));

    Thread callbackThread =
        converted
            .thenApply(value -> Thread.currentThread())
            .toCompletableFuture()
            .get(10, TimeUnit.SECONDS);

    assertThat(callbackThread).isNotSameAs(Thread.currentThread());
  }

  @Test
  void directStageRunsCallbacksWhereTheStageCompletes() throws Exception {
    CompletionStage<String> done = FutureConverters.asJava(Futures.successful("x"));
    assertThat(DirectStage.of(done).thenApply(value -> Thread.currentThread()).getNow(null))
        .isSameAs(Thread.currentThread());

    Promise<String> promise = Futures.promise();
    CompletableFuture<Thread> callbackThread =
        DirectStage.of(FutureConverters.asJava(promise.future()))
            .thenApply(value -> Thread.currentThread());
    Thread completer = new Thread(() -> promise.success("y"), "completer");
    completer.start();
    completer.join(10_000);

    assertThat(callbackThread.getNow(null)).isSameAs(completer);
  }

  @Test
  void directStagePassesFailuresOn() {
    Promise<String> promise = Futures.promise();
    CompletableFuture<String> direct = DirectStage.of(FutureConverters.asJava(promise.future()));
    promise.failure(new IllegalStateException("boom"));

    assertThat(direct).isCompletedExceptionally();
    try {
      direct.get();
    } catch (ExecutionException | InterruptedException e) {
      assertThat(e.getCause()).isInstanceOf(IllegalStateException.class).hasMessage("boom");
    }
  }
}
