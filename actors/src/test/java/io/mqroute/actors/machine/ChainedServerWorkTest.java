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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * A ring thread's server work and device time as one CPU item ({@code Exec.thenNanos}, issue #18)
 * end every request at the same virtual instant as the two hops they replace (the server work's
 * ServerDone to the poller, then the device's timed delivery): one fuse-io-uring queue whose two
 * ring threads share its core with the harvests and ends, so server work queues behind other work
 * and other work behind a server item whose result is still in the device.
 */
class ChainedServerWorkTest {
  private static final int REQUESTS = 40;

  private static List<String> ends(boolean chain) {
    List<String> ended = new ArrayList<>();
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
                      2,
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
                              false),
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
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "chained-server-work", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(100_000_000, done::isDone);
    }
    assertThat(done).as("every request ended").isCompleted();
    return ended;
  }

  @Test
  void everyRequestEndsAtTheSameInstantAsThroughServerDone() {
    List<String> viaServerDone = ends(false);
    assertThat(ends(true)).isEqualTo(viaServerDone);
  }
}
