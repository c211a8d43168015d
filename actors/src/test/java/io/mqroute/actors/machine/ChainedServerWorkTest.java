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
 * Two shortcuts of a ring thread's path (issue #18) change no request's end: 40 requests at once on
 * one fuse-io-uring queue with a ring of 8, whose ring threads share its core with the harvests and
 * ends, so server work queues behind other work and other work behind a server item whose result is
 * still in the device, and the overflow list and the refill take part.
 *
 * <ul>
 *   <li>A ring thread's server work and device time as one CPU item ({@code Exec.thenNanos}): the
 *       same end instants as the two hops they replace (the server work's ServerDone to the poller,
 *       then the device's timed delivery), with two ring threads.
 *   <li>A queue that keeps its one ring thread's backlog until the commit that frees the thread
 *       ({@code holdsBacklog}: {@link FlowProtocol.CommitServe} instead of a {@code Serve} per
 *       request): the same end instants and the same queueing report (started, waited, the busy and
 *       waiting areas) as one that hands each request to the thread when the ring takes it.
 * </ul>
 */
class ChainedServerWorkTest {
  private static final int REQUESTS = 40;

  private record Outcome(List<String> ends, Queueing queueing) {}

  private static Outcome run(int threads, boolean chain, boolean hold) {
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
                      threads,
                      3_000,
                      core,
                      random.split("faults"),
                      true,
                      chain);
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
                  Replies.into(ctx, FlowProtocol.QueueStats.class, stats, "reports");
              TimedDelivery.of(ctx.getSystem())
                  .at(50_000_000, queue, new FlowProtocol.QueueReport(reports));
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "ring-thread-path", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(100_000_000, stats::isDone);
    }
    assertThat(done).as("every request ended").isCompleted();
    assertThat(stats).as("the queue reported").isCompleted();
    return new Outcome(ended, stats.join().queueing());
  }

  @Test
  void everyRequestEndsAtTheSameInstantAsThroughServerDone() {
    List<String> viaServerDone = run(2, false, false).ends();
    assertThat(run(2, true, false).ends()).isEqualTo(viaServerDone);
  }

  @Test
  void aHeldBacklogEndsAndQueuesAsWhenTheThreadGetsEachRequestAtOnce() {
    Outcome each = run(1, true, false);
    Outcome held = run(1, true, true);
    assertThat(held.ends()).isEqualTo(each.ends());
    assertThat(held.queueing()).isEqualTo(each.queueing());
    assertThat(each.queueing().waitingArea()).as("requests waited for the thread").isPositive();
  }
}
