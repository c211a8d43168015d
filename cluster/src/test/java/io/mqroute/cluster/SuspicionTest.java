package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Request-level suspicion (issue #15): a queue that is listed and alive — its actor runs, its node
 * is a member — but answers nothing is taken out of the router's masks {@code suspect-after} after
 * it fell silent, long before membership would notice anything (here it never would): the requests
 * sent to it end with ECONNABORTED (fate unknown, never ENOTCONN), the ones waiting for it on the
 * host are routed to the other queue, and new requests go to the other queue. Real time; every wait
 * is a receive with a timeout.
 */
@Tag("integration")
class SuspicionTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration SUSPECT_AFTER = Duration.ofMillis(200);
  private static final int WINDOW = 2;
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void shutDown() {
    kit.shutdownTestKit();
  }

  private HostRouterProtocol.Slots slots(ActorRef<HostRouterProtocol.Command> router) {
    TestProbe<HostRouterProtocol.Slots> p = kit.createTestProbe();
    router.tell(new HostRouterProtocol.GetSlots(p.ref()));
    return p.receiveMessage(WAIT);
  }

  private ActorRef<HostRouterProtocol.Command> routerOverTwoQueues(Duration stuckFor) {
    kit.spawn(
        DeviceQueue.create(new DeviceQueue.Settings(0, 64, new DeviceQueue.NullBackend(stuckFor))),
        "a-stuck");
    kit.spawn(
        DeviceQueue.create(
            new DeviceQueue.Settings(1, 64, new DeviceQueue.NullBackend(Duration.ZERO))),
        "b-fast");
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(
            HostRouter.create(
                new HostRouterSettings("round-robin", 4, 1, WINDOW)
                    .withSuspectAfter(SUSPECT_AFTER)),
            "router");
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(slots(router).queues().stream().filter(Objects::nonNull).count())
                  .isEqualTo(2);
              return null;
            });
    return router;
  }

  private static void submit(
      ActorRef<HostRouterProtocol.Command> router, int from, int n, ActorRef<Completion> client) {
    for (int i = from; i < from + n; i++) {
      router.tell(
          new HostRouterProtocol.Submit(
              new Request(
                  i, Op.READ, 1, 4096L * i, 4096, true, i, NanoClock.SYSTEM.nanoTime(), client)));
    }
  }

  @Test
  void aStuckButListedQueueIsSuspectedAndNewRequestsGoElsewhereWithinTheBound() {
    ActorRef<HostRouterProtocol.Command> router = routerOverTwoQueues(Duration.ofMinutes(10));
    TestProbe<Completion> client = kit.createTestProbe();
    int n = 12;
    long t0 = System.nanoTime();
    submit(router, 0, n, client.ref());
    List<Completion> all = client.receiveSeveralMessages(n, WAIT);
    long allEnded = System.nanoTime() - t0;
    List<Completion> aborted = new ArrayList<>();
    for (Completion c : all) {
      if (c.status() == Status.ECONNABORTED) {
        aborted.add(c);
      } else {
        assertThat(c.status()).as("request %d", c.id()).isEqualTo(Status.OK);
        assertThat(c.queue()).as("waiting ones re-routed to the live queue").isEqualTo(1);
      }
    }
    // round robin gave the stuck queue 6: its window was sent and ends unknown, the rest waited on
    // the host and went to the other queue
    assertThat(aborted).as("the stuck queue's window").hasSize(WINDOW);
    assertThat(allEnded)
        .as("ended by suspicion, not before it")
        .isGreaterThanOrEqualTo(SUSPECT_AFTER.toNanos());
    System.out.printf(
        "SuspicionTest: %d requests ended %d ms after submission (suspect-after %d ms)%n",
        n, allEnded / 1_000_000, SUSPECT_AFTER.toMillis());

    // out of the masks: every new request goes to the live queue at once
    submit(router, 100, 16, client.ref());
    assertThat(client.receiveSeveralMessages(16, WAIT))
        .allSatisfy(
            c -> {
              assertThat(c.status()).isEqualTo(Status.OK);
              assertThat(c.queue()).isEqualTo(1);
            });
    NodeMetrics m = NodeMetrics.get(kit.system());
    assertThat(m.events()).containsEntry(RemoteQueue.EVENT_SUSPECTED, 1L);
    assertThat(m.events()).doesNotContainKey(HostRouter.EVENT_DUPLICATE_END);
    assertThat(m.queues().stream().filter(NodeMetrics.QueueGauge::suspected).toList())
        .as("the gauge of the stuck queue shows it")
        .singleElement()
        .extracting(NodeMetrics.QueueGauge::name)
        .asString()
        .contains("/a-stuck/");
    assertThat(m.count(Status.ENOTCONN)).as("ENOTCONN: never for a request that was sent").isZero();
  }

  @Test
  void theLastListedQueueIsNeverSuspected() {
    // both queues silent: one leaves the masks, the other stays, and no request is refused
    kit.spawn(
        DeviceQueue.create(
            new DeviceQueue.Settings(0, 64, new DeviceQueue.NullBackend(Duration.ofMinutes(10)))),
        "a-stuck");
    kit.spawn(
        DeviceQueue.create(
            new DeviceQueue.Settings(1, 64, new DeviceQueue.NullBackend(Duration.ofMinutes(10)))),
        "b-stuck");
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(
            HostRouter.create(
                new HostRouterSettings("round-robin", 4, 1, WINDOW)
                    .withSuspectAfter(SUSPECT_AFTER)),
            "router");
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(slots(router).queues().stream().filter(Objects::nonNull).count())
                  .isEqualTo(2);
              return null;
            });
    TestProbe<Completion> client = kit.createTestProbe();
    submit(router, 0, 4, client.ref());
    // one queue is suspected and gives its two up; the other keeps its two
    assertThat(client.receiveSeveralMessages(2, WAIT))
        .extracting(Completion::status)
        .containsOnly(Status.ECONNABORTED);
    submit(router, 10, 4, client.ref());
    // they go to the queue still listed (and wait there): none is refused for want of a queue
    client.expectNoMessage(SUSPECT_AFTER.multipliedBy(3));
    NodeMetrics m = NodeMetrics.get(kit.system());
    assertThat(m.events()).containsEntry(RemoteQueue.EVENT_SUSPECTED, 1L);
    assertThat(m.count(Status.ENOTCONN)).isZero();
  }

  @Test
  void aSuspectedQueueThatAnswersAgainIsReinstated() {
    // answers after 600 ms: suspected at 200 ms, then its late completions prove it alive
    ActorRef<HostRouterProtocol.Command> router = routerOverTwoQueues(Duration.ofMillis(600));
    TestProbe<Completion> client = kit.createTestProbe();
    submit(router, 0, 4, client.ref());
    List<Completion> first = client.receiveSeveralMessages(4, WAIT);
    assertThat(first).extracting(Completion::status).contains(Status.ECONNABORTED);
    NodeMetrics m = NodeMetrics.get(kit.system());
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(m.events()).containsEntry(RemoteQueue.EVENT_REINSTATED, 1L);
              return null;
            });
    assertThat(m.events()).containsKey(RemoteQueue.EVENT_COMPLETION_AFTER_END);
    assertThat(m.queues()).noneMatch(NodeMetrics.QueueGauge::suspected);
    // listed again: round robin sends it requests (it holds them 600 ms, so they are on it now)
    submit(router, 10, 4, client.ref());
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              HostRouterProtocol.Slots s = slots(router);
              int stuck = -1;
              for (int q = 0; q < s.queues().size(); q++) {
                if (s.queues().get(q) != null
                    && s.queues().get(q).path().toString().contains("/a-stuck/")) {
                  stuck = q;
                }
              }
              assertThat(s.nrReqs().get(stuck)).isPositive();
              return null;
            });
    client.receiveSeveralMessages(4, WAIT);
  }
}
