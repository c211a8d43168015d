package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.runtime.mm1.Mm1Params;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import java.util.function.UnaryOperator;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.OverflowStrategy;
import org.apache.pekko.stream.QueueOfferResult;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.javadsl.SourceQueueWithComplete;
import org.junit.jupiter.api.Test;

/** Pekko Streams materialized from a simulated actor run in virtual time. */
class VirtualTimeStreamsTest {
  private static final long HORIZON = TimeUnit.HOURS.toNanos(1);
  private static final long SERVICE_NANOS = 40_000;

  record Item(long id, long enqueuedAtNanos, long serviceNanos) {}

  record StreamResult(long elements, long digest, long finishedAtNanos) {}

  /** A future completed by a virtual timer after the job's service time. */
  private static CompletableFuture<Item> serve(ActorContext<?> ctx, Item job) {
    return SimFutures.after(ctx.getSystem(), Duration.ofNanos(job.serviceNanos()), () -> job);
  }

  /** Counts and digests (id, latency) in completion order. */
  private static Sink<Item, CompletionStage<Done>> recorder(
      ActorContext<?> ctx, RunDigest digest, long[] count) {
    NanoClock clock = NanoClock.of(ctx.getSystem());
    return Sink.foreach(
        job -> {
          digest.add(job.id(), clock.nanoTime() - job.enqueuedAtNanos());
          count[0]++;
        });
  }

  enum Arrival {
    INSTANCE
  }

  /**
   * BoundedSourceQueue → mapAsyncUnordered(4, virtual-timer futures) → sink. Arrivals are Poisson
   * (timer-driven) when {@code meanGapNanos > 0}, else all {@code n} jobs are offered at time 0.
   */
  private static Behavior<Object> boundedQueueModel(
      long seed,
      int n,
      double meanGapNanos,
      UnaryOperator<Long> service,
      CompletableFuture<StreamResult> result) {
    return Behaviors.setup(
        ctx ->
            Behaviors.withTimers(
                timers -> {
                  NanoClock clock = NanoClock.of(ctx.getSystem());
                  SplittableRandom arrivals = new SplittableRandom(seed);
                  RunDigest digest = new RunDigest();
                  long[] count = {0};
                  Pair<BoundedSourceQueue<Item>, CompletionStage<Done>> stream =
                      Source.<Item>queue(n)
                          .mapAsyncUnordered(4, job -> serve(ctx, job))
                          .toMat(recorder(ctx, digest, count), Keep.both())
                          .run(Materializer.createMaterializer(ctx));
                  BoundedSourceQueue<Item> queue = stream.first();
                  ctx.pipeToSelf(DirectStage.of(stream.second()), (done, failure) -> done);
                  long[] next = {0};
                  Runnable offer =
                      () -> {
                        QueueOfferResult offered =
                            queue.offer(
                                new Item(next[0], clock.nanoTime(), service.apply(next[0])));
                        assertThat(offered).isEqualTo(QueueOfferResult.enqueued());
                        if (++next[0] == n) {
                          queue.complete();
                        }
                      };
                  if (meanGapNanos > 0) {
                    timers.startSingleTimer(
                        Arrival.INSTANCE,
                        Duration.ofNanos(Mm1Params.exponentialNanos(arrivals, meanGapNanos)));
                  } else {
                    while (next[0] < n) {
                      offer.run();
                    }
                  }
                  return Behaviors.receiveMessage(
                      message -> {
                        if (message == Arrival.INSTANCE) {
                          offer.run();
                          if (next[0] < n) {
                            timers.startSingleTimer(
                                Arrival.INSTANCE,
                                Duration.ofNanos(
                                    Mm1Params.exponentialNanos(arrivals, meanGapNanos)));
                          }
                        } else if (message instanceof Done) {
                          result.complete(
                              new StreamResult(count[0], digest.value(), clock.nanoTime()));
                        }
                        return Behaviors.same();
                      });
                }));
  }

  @Test
  void boundedQueueWithMapAsyncUnorderedTakesExactlyTheVirtualTimeItShould() {
    // 10,000 jobs of 40 µs through 4 parallel slots, all queued at t=0: 2,500 rounds of 40 µs = 100
    // ms exactly.
    SimSystem.Outcome<StreamResult> outcome =
        SimSystem.run(
            "stream-fixed",
            TestConfigs.QUIET,
            HORIZON,
            result -> boundedQueueModel(1, 10_000, 0, id -> SERVICE_NANOS, result));

    StreamResult result = outcome.result().orElseThrow();
    assertThat(result.elements()).isEqualTo(10_000);
    assertThat(result.finishedAtNanos()).isEqualTo(100_000_000L);
    assertThat(outcome.stats().foreignTasks()).isZero();
  }

  @Test
  void boundedQueueWithPoissonArrivalsAndRandomServiceIsDeterministic() {
    // ρ = 40 µs / (4 × 12.5 µs) = 0.8 over 4 unordered slots; service times drawn per job id from a
    // seeded stream.
    LongFunction<SimSystem.Outcome<StreamResult>> run =
        seed ->
            SimSystem.run(
                "stream-random",
                TestConfigs.QUIET,
                HORIZON,
                result ->
                    boundedQueueModel(
                        seed,
                        20_000,
                        12_500,
                        id ->
                            Mm1Params.exponentialNanos(
                                new SplittableRandom(seed * 1_000_003L + id), 40_000),
                        result));

    SimSystem.Outcome<StreamResult> first = run.apply(5);
    SimSystem.Outcome<StreamResult> second = run.apply(5);
    SimSystem.Outcome<StreamResult> otherSeed = run.apply(6);

    assertThat(first.result().orElseThrow().elements()).isEqualTo(20_000);
    assertThat(second.result()).isEqualTo(first.result());
    assertThat(second.stats().tasksRun()).isEqualTo(first.stats().tasksRun());
    assertThat(otherSeed.result().orElseThrow().digest())
        .isNotEqualTo(first.result().orElseThrow().digest());
  }

  enum Heartbeat {
    INSTANCE
  }

  /**
   * Source.queue(64, backpressure, 8) → mapAsync(4, virtual 40 µs futures) → sink; a producer keeps
   * up to 8 offers in flight and offers the next job when an offer is acknowledged.
   */
  private static Behavior<Object> backpressuredQueueModel(
      int n, boolean direct, CompletableFuture<StreamResult> result) {
    return Behaviors.setup(
        ctx ->
            Behaviors.withTimers(
                timers -> {
                  if (!direct) {
                    // Keeps the run from going idle while acknowledgements travel through the
                    // common pool.
                    timers.startTimerAtFixedRate(Heartbeat.INSTANCE, Duration.ofMillis(1));
                  }
                  NanoClock clock = NanoClock.of(ctx.getSystem());
                  RunDigest digest = new RunDigest();
                  long[] count = {0};
                  Pair<SourceQueueWithComplete<Item>, CompletionStage<Done>> stream =
                      Source.<Item>queue(64, OverflowStrategy.backpressure(), 8)
                          .mapAsync(4, job -> serve(ctx, job))
                          .toMat(recorder(ctx, digest, count), Keep.both())
                          .run(Materializer.createMaterializer(ctx));
                  SourceQueueWithComplete<Item> queue = stream.first();
                  ctx.pipeToSelf(DirectStage.of(stream.second()), (done, failure) -> done);
                  long[] offered = {0};
                  long[] acknowledged = {0};
                  Runnable offerNext =
                      () -> {
                        CompletionStage<QueueOfferResult> ack =
                            queue.offer(new Item(offered[0]++, clock.nanoTime(), SERVICE_NANOS));
                        ctx.pipeToSelf(direct ? DirectStage.of(ack) : ack, (r, failure) -> r);
                      };
                  for (int i = 0; i < 8; i++) {
                    offerNext.run();
                  }
                  return Behaviors.receiveMessage(
                      message -> {
                        if (message instanceof QueueOfferResult ack) {
                          assertThat(ack).isEqualTo(QueueOfferResult.enqueued());
                          if (++acknowledged[0] == n) {
                            queue.complete();
                          } else if (offered[0] < n) {
                            offerNext.run();
                          }
                        } else if (message instanceof Done) {
                          result.complete(
                              new StreamResult(count[0], digest.value(), clock.nanoTime()));
                        }
                        return Behaviors.same();
                      });
                }));
  }

  @Test
  void backpressuredSourceQueueWithDirectStageAcksRunsInExactVirtualTime() {
    // 20,000 jobs of 40 µs, 4 at a time, the queue always ahead of mapAsync: 5,000 × 40 µs = 200 ms
    // exactly.
    SimSystem.Outcome<StreamResult> first =
        SimSystem.run(
            "backpressure",
            TestConfigs.QUIET,
            HORIZON,
            result -> backpressuredQueueModel(20_000, true, result));
    SimSystem.Outcome<StreamResult> second =
        SimSystem.run(
            "backpressure",
            TestConfigs.QUIET,
            HORIZON,
            result -> backpressuredQueueModel(20_000, true, result));

    StreamResult result = first.result().orElseThrow();
    assertThat(result.elements()).isEqualTo(20_000);
    assertThat(result.finishedAtNanos()).isEqualTo(200_000_000L);
    assertThat(second.result()).isEqualTo(first.result());
    assertThat(second.stats().tasksRun()).isEqualTo(first.stats().tasksRun());
  }

  @Test
  void backpressuredSourceQueueWithoutDirectStageIsCaught() {
    // offer() returns a Scala-converted CompletionStage whose callbacks run on the common pool.
    CompletableFuture<StreamResult> result = new CompletableFuture<>();
    try (SimSystem<Object> sim =
        SimSystem.start(
            "no-direct-stage", TestConfigs.QUIET, backpressuredQueueModel(20_000, false, result))) {
      assertThatThrownBy(() -> sim.runUntil(TimeUnit.HOURS.toNanos(10), result::isDone))
          .isInstanceOf(ForeignTaskException.class);
    }
  }
}
