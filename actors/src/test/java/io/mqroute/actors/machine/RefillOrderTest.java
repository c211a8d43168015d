package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.device.FixedDevice;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.runtime.SimSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * The order in which a full ring's parked requests reach the device, on one queue actor with its
 * poller and home core in virtual time: a ring of 1 slot, one poller (fixed 10 µs), requests 1..4
 * at t = 0 (1 on the ring; 2, 3, 4 parked).
 *
 * <p>A virtqueue refills with virtio_fs_request_dispatch_work: it moves parked requests from the
 * head until one does not fit, and that one goes back to the tail (list_add_tail, as in mainline
 * today: the kernel's overflow list is not FIFO). So each completion's refill moves one request and
 * re-queues the next behind the rest: 2 goes, 3 is re-queued behind 4; then 4 goes, 3 is re-queued;
 * then 3. A fuse-io-uring ring queue keeps the misfit at the head (fuse_uring_next_fuse_req takes
 * the first request of fuse_req_queue): FIFO.
 */
class RefillOrderTest {

  private static final long SERVICE = 10_000;
  private static final long COMPLETION = 5_000;

  private static List<Long> endOrder(boolean uring) {
    List<Long> ended = new ArrayList<>();
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    Behavior<Void> root =
        Behaviors.setup(
            ctx -> {
              DispatcherSelector same = DispatcherSelector.sameAsParent();
              ActorRef<CoreProtocol.Command> core =
                  ctx.spawn(Core.create(0, List.of(), Governor.PERFORMANCE, 0, null), "core", same);
              ActorRef<RouterCommand> router =
                  ctx.spawn(
                      Behaviors.receive(RouterCommand.class)
                          .onMessage(
                              FlowProtocol.Ended.class,
                              e -> {
                                ended.add(e.request().id());
                                if (ended.size() == 4) {
                                  done.complete(true);
                                }
                                return Behaviors.same();
                              })
                          .build(),
                      "router",
                      same);
              SeededRandom random = SeededRandom.root(1);
              Behavior<FlowProtocol.PollerCommand> poller =
                  Poller.create(
                      new FixedDevice(SERVICE),
                      random.split("service"),
                      DispatchOrder.fifo(),
                      1,
                      0,
                      core,
                      random.split("faults"),
                      uring,
                      false);
              ActorRef<QueueCommand> queue =
                  ctx.spawn(
                      RequestQueue.create(
                          new RequestQueue.Settings(
                              0,
                              0,
                              1,
                              FullRingStrategy.refillOnCompletion(),
                              EnqueueErrorPolicy.FAIL,
                              0,
                              COMPLETION,
                              uring,
                              false,
                              false),
                          random.split("queue-faults"),
                          poller,
                          core,
                          router),
                      "queue",
                      same);
              for (long id = 1; id <= 4; id++) {
                queue.tell(new FlowProtocol.Enqueue(request(id, 0)));
              }
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "refill-order", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(1_000_000, done::isDone);
    }
    assertThat(Optional.ofNullable(done.getNow(null))).as("all four ended").contains(true);
    return ended;
  }

  private static Request request(long id, long at) {
    return new Request(id, Op.READ, 1, id * 4096, 4096, true, 0, at, null);
  }

  @Test
  void aVirtqueueReQueuesTheRequestThatDidNotFitAtTheTail() {
    assertThat(endOrder(false)).containsExactly(1L, 2L, 4L, 3L);
  }

  @Test
  void aRingQueueKeepsTheRequestThatDidNotFitAtTheHead() {
    assertThat(endOrder(true)).containsExactly(1L, 2L, 3L, 4L);
  }
}
