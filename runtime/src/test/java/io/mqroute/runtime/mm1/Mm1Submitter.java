package io.mqroute.runtime.mm1;

import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.RunDigest;
import io.mqroute.runtime.mm1.Mm1Messages.Arrival;
import io.mqroute.runtime.mm1.Mm1Messages.Completed;
import io.mqroute.runtime.mm1.Mm1Messages.Request;
import io.mqroute.runtime.mm1.Mm1Messages.ServerCommand;
import io.mqroute.runtime.mm1.Mm1Messages.SubmitterCommand;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Poisson arrivals (exponential gaps on a typed timer); records sojourn times and completes the
 * result.
 */
final class Mm1Submitter {
  private final ActorContext<SubmitterCommand> ctx;
  private final TimerScheduler<SubmitterCommand> timers;
  private final ActorRef<ServerCommand> server;
  private final Mm1Params params;
  private final CompletableFuture<Mm1Result> result;
  private final NanoClock clock;
  private final SplittableRandom random;
  private final Histogram latencies = new Histogram(3);
  private final RunDigest digest = new RunDigest();
  private long submitted;
  private long completed;
  private long latencySum;

  private Mm1Submitter(
      ActorContext<SubmitterCommand> ctx,
      TimerScheduler<SubmitterCommand> timers,
      ActorRef<ServerCommand> server,
      Mm1Params params,
      CompletableFuture<Mm1Result> result) {
    this.ctx = ctx;
    this.timers = timers;
    this.server = server;
    this.params = params;
    this.result = result;
    this.clock = NanoClock.of(ctx.getSystem());
    this.random = params.arrivalRandom();
  }

  static Behavior<SubmitterCommand> create(
      ActorRef<ServerCommand> server, Mm1Params params, CompletableFuture<Mm1Result> result) {
    return Behaviors.setup(
        ctx ->
            Behaviors.withTimers(
                timers -> {
                  Mm1Submitter submitter = new Mm1Submitter(ctx, timers, server, params, result);
                  submitter.scheduleArrival();
                  return submitter.behavior();
                }));
  }

  private Behavior<SubmitterCommand> behavior() {
    return Behaviors.receive(SubmitterCommand.class)
        .onMessageEquals(Arrival.INSTANCE, this::onArrival)
        .onMessage(Completed.class, this::onCompleted)
        .build();
  }

  private Behavior<SubmitterCommand> onArrival() {
    server.tell(new Request(submitted++, clock.nanoTime(), ctx.getSelf().narrow()));
    if (submitted < params.requests()) {
      scheduleArrival();
    }
    return Behaviors.same();
  }

  private Behavior<SubmitterCommand> onCompleted(Completed done) {
    long now = clock.nanoTime();
    long latency = now - done.submittedAtNanos();
    latencies.recordValue(latency);
    latencySum += latency;
    digest.add(done.id(), latency);
    if (++completed == params.requests()) {
      result.complete(new Mm1Result(completed, digest.value(), latencySum, latencies, now));
    }
    return Behaviors.same();
  }

  private void scheduleArrival() {
    long gap = Mm1Params.exponentialNanos(random, params.meanInterarrivalNanos());
    timers.startSingleTimer(Arrival.INSTANCE, Duration.ofNanos(gap));
  }
}
