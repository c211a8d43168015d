package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.machine.FlowProtocol.Ended;
import io.mqroute.actors.machine.FlowProtocol.Enqueue;
import io.mqroute.actors.machine.FlowProtocol.QueueListed;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A starved device is slow, not gone (issue #15; CI saw it on a 2-core runner shared by four JVMs):
 * it stops answering long enough to be suspected, then works through its backlog one request at a
 * time. Its first answer proves it alive, so what it had been sent is not given up on: a request it
 * finishes after that request's give-up time, but within {@code suspect-after} of its previous
 * answer, ends OK, not ECONNABORTED. The device here is a probe that answers when told; one {@link
 * RemoteQueue} slot with this test as its router. Real time: S = 1 s, and every instant the test
 * picks is at least 240 ms from the ones the slot decides at.
 */
@Tag("integration")
class StarvedQueueTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration S = Duration.ofSeconds(1);
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void shutDown() {
    kit.shutdownTestKit();
  }

  private Request read(long id) {
    return new Request(
        id,
        Op.READ,
        0,
        4096L * id,
        4096,
        true,
        0,
        NanoClock.SYSTEM.nanoTime(),
        kit.createTestProbe().ref().unsafeUpcast());
  }

  private static void answer(RequestBatch b, Request r) {
    long now = NanoClock.SYSTEM.nanoTime();
    b.replyTo()
        .tell(new CompletionBatch(List.of(new Completion(r.id(), Status.OK, now, now, now, 0))));
  }

  @Test
  @SuppressWarnings("unchecked")
  void aSuspectedQueueThatAnswersAgainKeepsWhatItWasSent() {
    TestProbe<Object> device = kit.createTestProbe();
    TestProbe<RouterCommand> router = kit.createTestProbe();
    // another slot is listed: this one may be suspected (the last one listed never is)
    ActorRef<Object> slot =
        kit.spawn(RemoteQueue.create(0, router.ref(), 8, S, new AtomicInteger(1)), "slot");
    slot.tell(new RemoteQueueProtocol.Bind((ActorRef<Request>) (ActorRef<?>) device.ref()));
    assertThat(router.expectMessageClass(QueueListed.class, WAIT))
        .isEqualTo(new QueueListed(0, true));
    // one round trip, so that the give-up time includes it (R: a few ms here)
    slot.tell(new Enqueue(read(1)));
    RequestBatch first = device.expectMessageClass(RequestBatch.class, WAIT);
    answer(first, first.requests().get(0));
    assertThat(router.expectMessageClass(Ended.class, WAIT).completion().status())
        .isEqualTo(Status.OK);

    // t = 0: two requests leave; the device says nothing
    slot.tell(new Enqueue(read(2)));
    slot.tell(new Enqueue(read(3)));
    List<Request> onDevice = new ArrayList<>();
    List<RequestBatch> batches = new ArrayList<>();
    while (onDevice.size() < 2) {
      RequestBatch b = device.expectMessageClass(RequestBatch.class, WAIT);
      batches.add(b);
      onDevice.addAll(b.requests());
    }
    long t0 = System.nanoTime();
    // t = S: suspected
    assertThat(router.expectMessageClass(QueueListed.class, WAIT))
        .isEqualTo(new QueueListed(0, false));
    // t ≈ 1.5 S: the first of them is done (before its give-up at 2S + R + 10 ms): reinstated
    router.expectNoMessage(
        Duration.ofNanos(Math.max(0, t0 + S.toNanos() * 3 / 2 - System.nanoTime())));
    answer(batches.get(0), onDevice.get(0));
    List<RouterCommand> seen = new ArrayList<>();
    seen.add(router.receiveMessage(WAIT));
    seen.add(router.receiveMessage(WAIT));
    assertThat(seen)
        .anySatisfy(c -> assertThat(c).isEqualTo(new QueueListed(0, true)))
        .anySatisfy(
            c ->
                assertThat(((Ended) c).completion().status())
                    .as("request %d", onDevice.get(0).id())
                    .isEqualTo(Status.OK));
    // t ≈ 2.25 S: past the second's give-up time (≈ 2 S), within S of the device's last answer
    // (re-suspicion at ≈ 2.5 S): nothing was ended meanwhile, and its answer counts
    router.expectNoMessage(
        Duration.ofNanos(Math.max(0, t0 + S.toNanos() * 9 / 4 - System.nanoTime())));
    answer(batches.get(batches.size() - 1), onDevice.get(1));
    Ended second = router.expectMessageClass(Ended.class, WAIT);
    assertThat(second.request().id()).isEqualTo(onDevice.get(1).id());
    assertThat(second.completion().status())
        .as("finished by a live device after its give-up time: its real outcome")
        .isEqualTo(Status.OK);
    assertThat(NodeMetrics.get(kit.system()).events())
        .doesNotContainKey(RemoteQueue.EVENT_COMPLETION_AFTER_END);
  }
}
