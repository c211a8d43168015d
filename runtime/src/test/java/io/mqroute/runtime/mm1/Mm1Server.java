package io.mqroute.runtime.mm1;

import io.mqroute.runtime.mm1.Mm1Messages.Completed;
import io.mqroute.runtime.mm1.Mm1Messages.Request;
import io.mqroute.runtime.mm1.Mm1Messages.ServerCommand;
import io.mqroute.runtime.mm1.Mm1Messages.ServiceDone;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/** One FIFO server with exponential service times, timed by a typed timer. */
final class Mm1Server {
  private final TimerScheduler<ServerCommand> timers;
  private final SplittableRandom random;
  private final double meanServiceNanos;
  private final ArrayDeque<Request> waiting = new ArrayDeque<>();

  private Mm1Server(TimerScheduler<ServerCommand> timers, Mm1Params params) {
    this.timers = timers;
    this.random = params.serviceRandom();
    this.meanServiceNanos = params.meanServiceNanos();
  }

  static Behavior<ServerCommand> create(Mm1Params params) {
    return Behaviors.withTimers(timers -> new Mm1Server(timers, params).behavior());
  }

  private Behavior<ServerCommand> behavior() {
    return Behaviors.receive(ServerCommand.class)
        .onMessage(Request.class, this::onRequest)
        .onMessageEquals(ServiceDone.INSTANCE, this::onServiceDone)
        .build();
  }

  private Behavior<ServerCommand> onRequest(Request request) {
    waiting.addLast(request);
    if (waiting.size() == 1) {
      startService();
    }
    return Behaviors.same();
  }

  private Behavior<ServerCommand> onServiceDone() {
    Request done = waiting.removeFirst();
    done.replyTo().tell(new Completed(done.id(), done.submittedAtNanos()));
    if (!waiting.isEmpty()) {
      startService();
    }
    return Behaviors.same();
  }

  private void startService() {
    long service = Mm1Params.exponentialNanos(random, meanServiceNanos);
    timers.startSingleTimer(ServiceDone.INSTANCE, Duration.ofNanos(service));
  }
}
