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
import java.time.Duration;
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
 * poller and home core in virtual time: a ring of 2 slots served by 2 pollers (fixed 10 µs), a
 * completion cost of 5 µs on the home core, requests 1..5 at t = 0 (1, 2 on the ring; 3, 4, 5
 * parked) and request 6 at t = 12 µs, after the harvest of 1 and 2 but before their ends are done.
 *
 * <p>A virtqueue (virtio_fs_requests_done_work ends the batch, then schedules dispatch_work): 6
 * takes a freed slot as it arrives (virtio_fs_send_req tries the ring first), the dispatch work at
 * 15 µs moves 3 into the other and re-queues 4, which did not fit, at the tail behind 5
 * (virtio_fs_request_dispatch_work's list_add_tail). A fuse-io-uring ring queue refills in its
 * commit (fuse_uring_next_fuse_req takes the head), so 3 and 4 get the slots at once and 6 waits.
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
                                if (ended.size() == 6) {
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
                      2,
                      0,
                      core,
                      random.split("faults"),
                      uring);
              ActorRef<QueueCommand> queue =
                  ctx.spawn(
                      RequestQueue.create(
                          new RequestQueue.Settings(
                              0,
                              0,
                              2,
                              FullRingStrategy.refillOnCompletion(),
                              EnqueueErrorPolicy.FAIL,
                              0,
                              COMPLETION,
                              uring),
                          random.split("queue-faults"),
                          poller,
                          core,
                          router),
                      "queue",
                      same);
              for (long id = 1; id <= 5; id++) {
                queue.tell(new FlowProtocol.Enqueue(request(id, 0)));
              }
              ctx.scheduleOnce(
                  Duration.ofNanos(12_000), queue, new FlowProtocol.Enqueue(request(6, 12_000)));
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "refill-order", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(1_000_000, done::isDone);
    }
    assertThat(Optional.ofNullable(done.getNow(null))).as("all six ended").contains(true);
    return ended;
  }

  private static Request request(long id, long at) {
    return new Request(id, Op.READ, 1, id * 4096, 4096, true, 0, at, null);
  }

  @Test
  void aVirtqueueRefillsAfterItsEndsAndReQueuesTheMisfitAtTheTail() {
    assertThat(endOrder(false)).containsExactly(1L, 2L, 6L, 3L, 5L, 4L);
  }

  @Test
  void aRingQueueRefillsInItsCommitFromTheHead() {
    assertThat(endOrder(true)).containsExactly(1L, 2L, 3L, 4L, 5L, 6L);
  }
}
