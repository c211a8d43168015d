package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.device.ExponentialDevice;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.SimSystem;
import io.mqroute.runtime.TimedDelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A queue that keeps its one ring thread's backlog until the commit that frees the thread ({@code
 * holdsBacklog}, issue #18: {@link FlowProtocol.CommitServe} instead of a {@code Serve} per
 * request) ends every request at the same virtual instant, and reports the same queueing (requests
 * started, waited, the waiting and busy areas), as one that hands each request to the thread when
 * the ring takes it: 40 requests at once on a ring of 8, so the backlog, the overflow list and the
 * refill all take part.
 */
class HeldBacklogTest {
  private static final int REQUESTS = 40;

  private record Outcome(List<String> ends, Queueing queueing) {}

  private static Outcome ends(boolean hold) {
    List<String> ended = new ArrayList<>();
    CompletableFuture<FlowProtocol.QueueStats> stats = new CompletableFuture<>();
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    Behavior<Void> root =
        Behaviors.setup(
            ctx -> {
              NanoClock clock = NanoClock.of(ctx.getSystem());
              DispatcherSelector same = DispatcherSelector.sameAsParent();
              ActorRef<CoreProtocol.Command> core =
                  ctx.spawn(
                      Core.create(0, List.of(), Governor.PERFORMANCE, 1_000, null), "core", same);
              ActorRef<RouterCommand> router =
                  ctx.spawn(
                      Behaviors.receive(RouterCommand.class)
                          .onMessage(
                              FlowProtocol.Ended.class,
                              e -> {
                                ended.add(e.request().id() + "@" + clock.nanoTime());
                                if (ended.size() == REQUESTS) {
                                  done.complete(true);
                                }
                                return Behaviors.same();
                              })
                          .build(),
                      "router",
                      same);
              SeededRandom random = SeededRandom.root(7);
              Behavior<FlowProtocol.PollerCommand> poller =
                  Poller.create(
                      new ExponentialDevice(4_000),
                      random.split("service"),
                      DispatchOrder.fifo(),
                      1,
                      3_000,
                      core,
                      random.split("faults"),
                      true,
                      true);
              ActorRef<QueueCommand> queue =
                  ctx.spawn(
                      RequestQueue.create(
                          new RequestQueue.Settings(
                              0,
                              0,
                              8,
                              FullRingStrategy.refillOnCompletion(),
                              EnqueueErrorPolicy.FAIL,
                              0,
                              2_000,
                              true,
                              false,
                              hold),
                          random.split("queue-faults"),
                          poller,
                          core,
                          router),
                      "queue",
                      same);
              for (long id = 1; id <= REQUESTS; id++) {
                queue.tell(
                    new FlowProtocol.Enqueue(
                        new Request(id, Op.READ, 1, id * 4096, 4096, true, 0, 0, null)));
              }
              ActorRef<FlowProtocol.QueueStats> reports =
                  ctx.spawn(
                      Behaviors.receive(FlowProtocol.QueueStats.class)
                          .onAnyMessage(
                              s -> {
                                stats.complete(s);
                                return Behaviors.same();
                              })
                          .build(),
                      "reports",
                      same);
              TimedDelivery.of(ctx.getSystem())
                  .at(50_000_000, queue, new FlowProtocol.QueueReport(reports));
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "held-backlog", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(100_000_000, stats::isDone);
    }
    assertThat(done).as("every request ended").isCompleted();
    assertThat(stats).as("the queue reported").isCompleted();
    return new Outcome(ended, stats.join().queueing());
  }

  @Test
  void everyRequestEndsAndQueuesAsWhenTheThreadGetsEachRequestAtOnce() {
    Outcome each = ends(false);
    Outcome held = ends(true);
    assertThat(held.ends()).isEqualTo(each.ends());
    assertThat(held.queueing()).isEqualTo(each.queueing());
    assertThat(each.queueing().waitingArea()).as("requests waited for the thread").isPositive();
  }
}
