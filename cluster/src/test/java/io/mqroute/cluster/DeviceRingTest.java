package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.policies.strategy.DelayedRetry;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A device queue takes its queueing decisions with the virtual-time queue's {@code RingQueue},
 * configured with the experiment format's keys: whatever the full-ring strategy and ENOMEM policy,
 * every request ends exactly once, the ring bound holds, and ENOMEM is a status in the completion,
 * never a lost request. Real time: waits poll.
 */
@Tag("integration")
class DeviceRingTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterEach
  void shutDown() {
    kit.shutdownTestKit();
  }

  /** The device block of a node's configuration: the shipped defaults under {@code overrides}. */
  private static Config device(String overrides) {
    return ConfigFactory.parseString(overrides)
        .withFallback(ConfigFactory.load())
        .getConfig("mqroute.cluster.device");
  }

  private static Request request(long id, ActorRef<Completion> replyTo) {
    return new Request(id, Op.READ, 1, 4096L * id, 4096, true, (int) id, 0, replyTo);
  }

  private DeviceQueueProtocol.Stats stats(ActorRef<DeviceQueueProtocol.Command> queue) {
    TestProbe<DeviceQueueProtocol.Stats> p = kit.createTestProbe();
    queue.tell(new DeviceQueueProtocol.GetStats(p.ref()));
    return p.receiveMessage(WAIT);
  }

  /**
   * Sends {@code n} requests in batches of {@code batch}, and returns every completion each got.
   */
  private Map<Long, List<Status>> run(
      ActorRef<DeviceQueueProtocol.Command> queue, int n, int batch) {
    TestProbe<CompletionBatch> client = kit.createTestProbe();
    for (int from = 0; from < n; from += batch) {
      List<Request> rs = new ArrayList<>();
      for (int i = from; i < Math.min(n, from + batch); i++) {
        rs.add(request(i, null));
      }
      queue.tell(new DeviceQueueProtocol.SubmitBatch(new RequestBatch(rs, client.ref())));
    }
    Map<Long, List<Status>> ends = new HashMap<>();
    int received = 0;
    while (received < n) {
      for (Completion c : client.receiveMessage(WAIT).completions()) {
        ends.computeIfAbsent(c.id(), k -> new ArrayList<>()).add(c.status());
        received++;
      }
    }
    client.expectNoMessage(Duration.ofMillis(100));
    return ends;
  }

  private static void assertExactlyOnce(Map<Long, List<Status>> ends, int n) {
    assertThat(ends).hasSize(n);
    ends.forEach((id, statuses) -> assertThat(statuses).as("request %d", id).hasSize(1));
  }

  private static Map<Status, Integer> byStatus(Map<Long, List<Status>> ends) {
    Map<Status, Integer> out = new EnumMap<>(Status.class);
    ends.values().forEach(s -> out.merge(s.get(0), 1, Integer::sum));
    return out;
  }

  /** Once everything has ended: nothing held, nothing parked, every invariant intact. */
  private void assertDrained(ActorRef<DeviceQueueProtocol.Command> queue, int n, int ringSize) {
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              DeviceQueueProtocol.Stats s = stats(queue);
              assertThat(s.violations()).isEmpty();
              assertThat(s.accepted()).isEqualTo(n);
              assertThat(s.completed()).isEqualTo(n);
              assertThat(s.onRing() + s.queued()).isZero();
              assertThat(s.maxOccupancy()).isBetween(1, ringSize);
              return null;
            });
  }

  @Test
  void delayedRetryFromTheConfigEndsEveryRequestOnceWithinTheRing() {
    DeviceRules rules =
        DeviceRules.fromConfig(device("mqroute.cluster.device.full-ring = \"delayed-retry(1ms)\""));
    assertThat(rules.fullRing()).isEqualTo(new DelayedRetry(1_000_000));
    ActorRef<DeviceQueueProtocol.Command> queue =
        kit.spawn(
            DeviceQueue.create(
                new DeviceQueue.Settings(
                    0, 4, new DeviceQueue.NullBackend(Duration.ofMillis(1)), rules)),
            "delayed");
    Map<Long, List<Status>> ends = run(queue, 200, 50);
    assertExactlyOnce(ends, 200);
    assertThat(byStatus(ends)).containsOnlyKeys(Status.OK);
    assertDrained(queue, 200, 4);
    DeviceQueueProtocol.Stats s = stats(queue);
    assertThat(s.overflowWaits()).as("batches of 50 on a ring of 4 park").isPositive();
    assertThat(s.delayedRetries()).as("only the timer moves parked requests").isPositive();
  }

  @Test
  void refillOnCompletionNeedsNoTimer() {
    ActorRef<DeviceQueueProtocol.Command> queue =
        kit.spawn(
            DeviceQueue.create(
                new DeviceQueue.Settings(0, 4, new DeviceQueue.NullBackend(Duration.ofMillis(1)))),
            "refill");
    Map<Long, List<Status>> ends = run(queue, 200, 50);
    assertExactlyOnce(ends, 200);
    assertDrained(queue, 200, 4);
    assertThat(stats(queue).overflowWaits()).isPositive();
    assertThat(stats(queue).delayedRetries()).isZero();
  }

  @Test
  void enomemFailEndsRequestsWithEnomemAndRequeueRetriesThemUnderDelayedRetry() {
    DeviceRules fail = DeviceRules.DEFAULT.withEnomem(0.3, EnqueueErrorPolicy.FAIL);
    ActorRef<DeviceQueueProtocol.Command> failing =
        kit.spawn(
            DeviceQueue.create(
                new DeviceQueue.Settings(0, 4, new DeviceQueue.NullBackend(Duration.ZERO), fail)),
            "enomem-fail");
    Map<Long, List<Status>> ends = run(failing, 300, 30);
    assertExactlyOnce(ends, 300);
    Map<Status, Integer> statuses = byStatus(ends);
    assertThat(statuses).containsOnlyKeys(Status.OK, Status.ENOMEM);
    assertThat((long) statuses.get(Status.ENOMEM)).isEqualTo(stats(failing).enomem());
    assertDrained(failing, 300, 4);

    DeviceRules requeue =
        DeviceRules.DEFAULT
            .withFullRing(FullRingStrategy.delayedRetry(1_000_000))
            .withEnomem(0.3, EnqueueErrorPolicy.REQUEUE);
    ActorRef<DeviceQueueProtocol.Command> requeueing =
        kit.spawn(
            DeviceQueue.create(
                new DeviceQueue.Settings(
                    1, 4, new DeviceQueue.NullBackend(Duration.ZERO), requeue)),
            "enomem-requeue");
    Map<Long, List<Status>> retried = run(requeueing, 300, 30);
    assertExactlyOnce(retried, 300);
    assertThat(byStatus(retried)).containsOnlyKeys(Status.OK);
    assertThat(stats(requeueing).enomem()).isPositive();
    assertDrained(requeueing, 300, 4);
  }

  @Test
  void lifoPerBatchStartsWhatArrivedWhileThePollerWasBusyInReverse() {
    // the model's poller (seed 004): one worker; request 1 keeps it busy, 2..4 arrive meanwhile
    // and form the next batch, which lifo-per-batch starts in reverse (what arrives in one batch
    // reaches the ring at once, as one avail-ring update, and is one batch to the poller)
    DeviceRules lifo =
        DeviceRules.fromConfig(device("mqroute.cluster.device.dispatch = lifo-per-batch"));
    for (String order : List.of("fifo", "lifo")) {
      DeviceRules rules = order.equals("fifo") ? DeviceRules.DEFAULT : lifo;
      ActorRef<DeviceQueueProtocol.Command> queue =
          kit.spawn(
              DeviceQueue.create(
                  new DeviceQueue.Settings(
                      0, 8, new DeviceQueue.NullBackend(Duration.ofMillis(20)), rules, 1)),
              "order-" + order);
      TestProbe<CompletionBatch> client = kit.createTestProbe();
      queue.tell(
          new DeviceQueueProtocol.SubmitBatch(
              new RequestBatch(List.of(request(1, null)), client.ref())));
      queue.tell(
          new DeviceQueueProtocol.SubmitBatch(
              new RequestBatch(
                  List.of(request(2, null), request(3, null), request(4, null)), client.ref())));
      List<Long> ids = new java.util.ArrayList<>();
      while (ids.size() < 4) {
        client.receiveMessage(WAIT).completions().forEach(c -> ids.add(c.id()));
      }
      assertThat(ids)
          .as(order)
          .containsExactlyElementsOf(
              order.equals("fifo") ? List.of(1L, 2L, 3L, 4L) : List.of(1L, 4L, 3L, 2L));
    }
  }

  @Test
  void aDeviceNodeWithDelayedRetryBehindAHostRouterEndsEveryRequestOnce() {
    Config c =
        device(
            """
        mqroute.cluster.device { full-ring = "delayed-retry(500us)", ring-size = 2, service-delay = 1ms }
        """);
    DeviceQueue.Settings settings = DeviceQueue.Settings.fromConfig(0, c);
    assertThat(settings.rules().fullRing().spec()).isEqualTo("delayed-retry(500us)");
    kit.spawn(DeviceQueue.create(settings), "q0");
    kit.spawn(DeviceQueue.create(settings.withIndex(1)), "q1");
    // a window beyond the ring: the requests wait on the devices' overflow lists, not on the host
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(HostRouter.create(new HostRouterSettings("round-robin", 4, 1, 32)), "router");
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              TestProbe<HostRouterProtocol.Slots> p = kit.createTestProbe();
              router.tell(new HostRouterProtocol.GetSlots(p.ref()));
              assertThat(p.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
                  .isEqualTo(2);
              return null;
            });
    TestProbe<Completion> client = kit.createTestProbe();
    int n = 100;
    for (int i = 0; i < n; i++) {
      router.tell(
          new HostRouterProtocol.Submit(
              new Request(i, Op.READ, 1, 0, 4096, false, i, 0, client.ref())));
    }
    Map<Long, List<Status>> ends = new HashMap<>();
    for (Completion c2 : client.receiveSeveralMessages(n, WAIT)) {
      ends.computeIfAbsent(c2.id(), k -> new ArrayList<>()).add(c2.status());
    }
    client.expectNoMessage(Duration.ofMillis(100));
    assertExactlyOnce(ends, n);
    assertThat(byStatus(ends)).containsOnlyKeys(Status.OK);
  }

  @Test
  void aBadValueIsOneLineNamingTheKeyWithTheNearestName() {
    assertThatThrownBy(
            () ->
                DeviceRules.fromConfig(device("mqroute.cluster.device.full-ring = delayed-retyr")))
        .isInstanceOf(NodeConfigException.class)
        .hasMessage(
            "mqroute.cluster.device.full-ring: unknown full-ring strategy \"delayed-retyr\"; did you mean "
                + "\"delayed-retry\"? (valid: delayed-retry, refill-on-completion)");
    assertThatThrownBy(
            () -> DeviceRules.fromConfig(device("mqroute.cluster.device.enqueue-error = requeu")))
        .hasMessageStartingWith(
            "mqroute.cluster.device.enqueue-error: unknown enqueue-error policy \"requeu\"");
    assertThatThrownBy(
            () -> DeviceRules.fromConfig(device("mqroute.cluster.device.enomem-probability = 2")))
        .hasMessage(
            "mqroute.cluster.device.enomem-probability: enomem-probability must be in [0, 1], was 2.0");
    assertThatThrownBy(
            () -> DeviceRules.fromConfig(device("mqroute.cluster.device.dispatch = \"pool(4)\"")))
        .hasMessageStartingWith(
            "mqroute.cluster.device.dispatch: dispatch pool(4) is not available");
    assertThatThrownBy(
            () ->
                DeviceRules.fromConfig(
                    device(
                        """
        mqroute.cluster.device { enqueue-error = requeue, enomem-probability = 0.1 }
        """)))
        .hasMessageContaining("seed 001 V2 deadlock")
        .hasMessageNotContaining("\n");
  }
}
