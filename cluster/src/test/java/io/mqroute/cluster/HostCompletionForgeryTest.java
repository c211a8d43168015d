package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Completions are the devices' to send: a client cannot complete requests through the router's
 * entry, and a completion naming another queue than the one the request was sent to is dropped and
 * counted.
 */
@Tag("integration")
class HostCompletionForgeryTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void shutDown() {
    kit.shutdownTestKit();
  }

  /**
   * A fake device queue registered under the queues' key; returns the router once it routes to it.
   */
  private ActorRef<HostRouterProtocol.Command> routerWith(TestProbe<Object> queue) {
    kit.system()
        .receptionist()
        .tell(Receptionist.register(DeviceQueue.QUEUES, queue.ref().narrow()));
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(
            HostRouter.create(
                new HostRouterSettings("round-robin", 4, 1, 8).withSuspectAfter(null)),
            "router");
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              TestProbe<HostRouterProtocol.Slots> p = kit.createTestProbe();
              router.tell(new HostRouterProtocol.GetSlots(p.ref()));
              assertThat(p.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
                  .isEqualTo(1);
              return null;
            });
    return router;
  }

  private ActorRef<Request> entry() {
    TestProbe<Receptionist.Listing> p = kit.createTestProbe();
    kit.system().receptionist().tell(Receptionist.find(HostRouter.ROUTERS, p.ref()));
    return p.receiveMessage(WAIT).getServiceInstances(HostRouter.ROUTERS).iterator().next();
  }

  @Test
  void aClientCannotCompleteRequestsThroughTheRouterEntry() {
    TestProbe<Object> queue = kit.createTestProbe();
    ActorRef<HostRouterProtocol.Command> router = routerWith(queue);
    TestProbe<Completion> client = kit.createTestProbe();
    router.tell(
        new HostRouterProtocol.Submit(
            new Request(7, Op.READ, 1, 0, 4096, false, 0, 0, client.ref())));
    RequestBatch sent = queue.expectMessageClass(RequestBatch.class, WAIT);
    long routerId = sent.requests().get(0).id();

    @SuppressWarnings("unchecked")
    ActorRef<Object> asAnything = (ActorRef<Object>) (ActorRef<?>) entry();
    asAnything.tell(new Completion(routerId, Status.OK, 0, 0, 0, 3));
    asAnything.tell(new CompletionBatch(List.of(new Completion(routerId, Status.OK, 0, 0, 0, 3))));
    client.expectNoMessage(Duration.ofMillis(300));

    sent.replyTo()
        .tell(new CompletionBatch(List.of(new Completion(routerId, Status.EIO, 0, 0, 0, 3))));
    Completion c = client.receiveMessage(WAIT);
    assertThat(c.id()).isEqualTo(7);
    assertThat(c.status()).isEqualTo(Status.EIO);
  }

  @Test
  void aCompletionFromAnotherQueueThanTheRequestsIsDroppedAndCounted() {
    TestProbe<Object> queue = kit.createTestProbe();
    ActorRef<HostRouterProtocol.Command> router = routerWith(queue);
    TestProbe<Completion> client = kit.createTestProbe();
    router.tell(
        new HostRouterProtocol.Submit(
            new Request(1, Op.READ, 1, 0, 4096, false, 0, 0, client.ref())));
    router.tell(
        new HostRouterProtocol.Submit(
            new Request(2, Op.READ, 1, 0, 4096, false, 0, 0, client.ref())));
    RequestBatch sent = queue.expectMessageClass(RequestBatch.class, WAIT);
    List<Request> reqs = new ArrayList<>(sent.requests());
    if (reqs.size() < 2) { // the router's flush may have come between the submits
      reqs.addAll(queue.expectMessageClass(RequestBatch.class, WAIT).requests());
    }
    long first = reqs.get(0).id();
    long second = reqs.get(1).id();

    // the slot's queue answers as queue 5
    sent.replyTo().tell(new CompletionBatch(List.of(new Completion(first, Status.OK, 0, 0, 0, 5))));
    assertThat(client.receiveMessage(WAIT).id()).isEqualTo(1);
    // another queue (another device, knowing the reply endpoint) claims the second request
    sent.replyTo()
        .tell(new CompletionBatch(List.of(new Completion(second, Status.EIO, 0, 0, 0, 6))));
    client.expectNoMessage(Duration.ofMillis(300));
    assertThat(NodeMetrics.get(kit.system()).dropped())
        .containsEntry(HostRouter.DROPPED_WRONG_QUEUE, 1L);
    // its own queue's completion still counts
    sent.replyTo()
        .tell(new CompletionBatch(List.of(new Completion(second, Status.OK, 0, 0, 0, 5))));
    Completion c = client.receiveMessage(WAIT);
    assertThat(c.id()).isEqualTo(2);
    assertThat(c.status()).isEqualTo(Status.OK);
  }

  @Test
  void aBatchClientWhoseRequestsWaitOnASilentQueueHearsThatTheHostLives() {
    TestProbe<Object> queue = kit.createTestProbe();
    routerWith(queue);
    TestProbe<Object> client = kit.createTestProbe();
    @SuppressWarnings("unchecked")
    ActorRef<CompletionBatch> replies = (ActorRef<CompletionBatch>) (ActorRef<?>) client.ref();
    @SuppressWarnings("unchecked")
    ActorRef<RequestBatch> entry = (ActorRef<RequestBatch>) (ActorRef<?>) entry();
    entry.tell(
        new RequestBatch(List.of(new Request(9, Op.READ, 1, 0, 4096, false, 0, 0, null)), replies));
    RequestBatch sent = queue.expectMessageClass(RequestBatch.class, WAIT);
    // the queue says nothing: the host says it holds the request, every KEEP_ALIVE
    assertThat(client.expectMessageClass(HostAlive.class, WAIT).held()).isEqualTo(1);
    assertThat(client.expectMessageClass(HostAlive.class, WAIT).held()).isEqualTo(1);
    sent.replyTo()
        .tell(
            new CompletionBatch(
                List.of(new Completion(sent.requests().get(0).id(), Status.OK, 0, 0, 0, 3))));
    Object answer =
        client
            .fishForMessage(
                WAIT,
                m ->
                    m instanceof CompletionBatch
                        ? FishingOutcomes.complete()
                        : org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes
                            .continueAndIgnore())
            .get(0);
    assertThat(((CompletionBatch) answer).completions().get(0).id()).isEqualTo(9);
    // nothing held: no more keep-alives
    client.expectNoMessage(HostRouter.KEEP_ALIVE.multipliedBy(3));
  }
}
