package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * architecture.md §5a device loss, in one local system: the router sends at most a window of
 * requests to a queue and keeps the rest; when a queue goes (its actor stops, so it leaves the
 * Receptionist listing), the requests sent to it end with ECONNABORTED (fate unknown) and the ones
 * waiting for it on the host go to the remaining queue. A queue that appears later is used. The
 * listing path alone: suspicion is off here (SuspicionTest has it).
 */
@Tag("integration")
class ReRoutingTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int WINDOW = 2;
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void shutDown() {
    kit.shutdownTestKit();
  }

  private static DeviceQueue.Settings queue(int index, Duration delay) {
    return new DeviceQueue.Settings(index, 64, new DeviceQueue.NullBackend(delay));
  }

  private HostRouterProtocol.Slots slots(ActorRef<HostRouterProtocol.Command> router) {
    TestProbe<HostRouterProtocol.Slots> p = kit.createTestProbe();
    router.tell(new HostRouterProtocol.GetSlots(p.ref()));
    return p.receiveMessage(WAIT);
  }

  private void awaitQueues(ActorRef<HostRouterProtocol.Command> router, int n) {
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(slots(router).queues().stream().filter(Objects::nonNull).count())
                  .isEqualTo(n);
              return null;
            });
  }

  @Test
  void aLostQueuesSentRequestsEndWithEconnabortedAndItsWaitingOnesGoToAnotherQueue() {
    // it holds every request for far longer than the test
    ActorRef<DeviceQueueProtocol.Command> stuck =
        kit.spawn(DeviceQueue.create(queue(0, Duration.ofMinutes(10))), "a-stuck");
    kit.spawn(DeviceQueue.create(queue(1, Duration.ZERO)), "b-fast");
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(
            HostRouter.create(
                new HostRouterSettings("round-robin", 4, 1, WINDOW).withSuspectAfter(null)),
            "router");
    awaitQueues(router, 2);

    TestProbe<Completion> client = kit.createTestProbe();
    int n = 12;
    for (int i = 0; i < n; i++) {
      router.tell(
          new HostRouterProtocol.Submit(
              new Request(i, Op.READ, 1, 4096L * i, 4096, true, i, 0, client.ref())));
    }
    // after the submits (mailbox order): what the stuck queue has, sent and waiting
    HostRouterProtocol.Slots s = slots(router);
    // its slot: not necessarily 0, the two queues may reach the router in separate listings in
    // either order
    int stuckSlot =
        s.queues()
            .indexOf(
                s.queues().stream()
                    .filter(q -> q != null && q.path().toString().contains("/a-stuck/"))
                    .findFirst()
                    .orElseThrow());
    int onStuck = s.nrReqs().get(stuckSlot);
    TestProbe<List<Integer>> waiting = kit.createTestProbe();
    router.tell(new HostRouterProtocol.GetWaiting(waiting.ref()));
    assertThat(waiting.receiveMessage(WAIT).get(stuckSlot)).isEqualTo(onStuck - WINDOW);
    assertThat(onStuck)
        .as("round robin gives the stuck queue more than its window")
        .isGreaterThan(WINDOW);

    Set<Long> ids = new HashSet<>();
    List<Completion> first = client.receiveSeveralMessages(n - onStuck, WAIT);
    first.forEach(c -> assertThat(c.status()).isEqualTo(Status.OK));
    first.forEach(c -> ids.add(c.id()));

    kit.stop(stuck);
    List<Completion> rest = client.receiveSeveralMessages(onStuck, WAIT);
    List<Completion> aborted = new ArrayList<>();
    for (Completion c : rest) {
      assertThat(ids.add(c.id())).as("one completion per request").isTrue();
      if (c.status() == Status.ECONNABORTED) {
        aborted.add(c);
      } else {
        assertThat(c.status()).isEqualTo(Status.OK);
        assertThat(c.queue()).as("re-routed to the remaining queue").isEqualTo(1);
      }
    }
    assertThat(aborted).as("the requests sent to the lost queue").hasSize(WINDOW);
    assertThat(ids).hasSize(n);
    client.expectNoMessage(Duration.ofMillis(200));

    // a queue that appears later gets requests
    kit.spawn(DeviceQueue.create(queue(2, Duration.ZERO)), "c-new");
    awaitQueues(router, 2);
    for (int i = 0; i < 8; i++) {
      router.tell(
          new HostRouterProtocol.Submit(
              new Request(100 + i, Op.READ, 1, 0, 4096, true, i, 0, client.ref())));
    }
    assertThat(client.receiveSeveralMessages(8, WAIT))
        .extracting(Completion::queue)
        .contains(1, 2)
        .doesNotContain(0);
  }
}
