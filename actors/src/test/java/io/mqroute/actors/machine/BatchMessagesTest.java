package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.device.IoDevice;
import io.mqroute.actors.machine.FlowProtocol.QueueCommand;
import io.mqroute.actors.machine.FlowProtocol.RouterCommand;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.strategy.BackgroundAdmission;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The batch forms of the path's messages (issue #17): a node's transport hands the model's actors
 * what one socket read brought in one message, and they answer in one message per receiver, with
 * the same decisions the single messages in a row would make. Real time (a node's clock): virtual
 * time never sends them.
 */
class BatchMessagesTest {
  private static final ActorTestKit KIT = ActorTestKit.create();
  private static final Duration WAIT = Duration.ofSeconds(10);

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private static Request request(long id, ActorRef<Completion> replyTo) {
    return new Request(id, Op.READ, 0, id * 4096, 4096, false, 0, 0, replyTo, false, null);
  }

  /** A round-robin router over {@code queues}, every core one probe (a node's pass-through). */
  private static ActorRef<RouterCommand> router(
      String name, List<ActorRef<QueueCommand>> queues, ActorRef<CoreProtocol.Command> core) {
    int n = queues.size();
    ActorRef<RouterCommand> router =
        KIT.spawn(
            Router.create(
                Router.Settings.ofNode(
                    Selectors.create("round-robin"),
                    MutableRoutingView.newBuilder(CpuTopology.uniform(1, n))
                        .queues(n)
                        .registered()
                        .build(),
                    BackgroundAdmission.newBuilder().maxBackground(65535).queues(n).build()),
                SeededRandom.root(1).split("routing"),
                queues,
                Collections.nCopies(n, core),
                null),
            name);
    for (int q = 0; q < n; q++) {
      router.tell(new FlowProtocol.QueueListed(q, true)); // as a node's slots do once bound
    }
    return router;
  }

  /** The ids of the single Enqueues a probe got, until none came for 300 ms. */
  private static List<Long> enqueued(TestProbe<QueueCommand> probe) {
    List<Long> ids = new ArrayList<>();
    while (true) {
      try {
        ids.add(
            probe
                .expectMessageClass(FlowProtocol.Enqueue.class, Duration.ofMillis(300))
                .request()
                .id());
      } catch (AssertionError none) {
        return ids;
      }
    }
  }

  @Test
  void routeAllSendsEachQueueItsShareInOneMessageAsTheSingleRoutesWouldChoose() {
    TestProbe<Completion> client = KIT.createTestProbe();
    TestProbe<CoreProtocol.Command> core = KIT.createTestProbe();
    List<Request> rs = new ArrayList<>();
    for (long id = 0; id < 5; id++) {
      rs.add(request(id, client.ref()));
    }
    // the single messages in a row: where round robin sends each
    List<TestProbe<QueueCommand>> single = List.of(KIT.createTestProbe(), KIT.createTestProbe());
    ActorRef<RouterCommand> one =
        router("singles", List.of(single.get(0).ref(), single.get(1).ref()), core.ref());
    rs.forEach(r -> one.tell(new FlowProtocol.Route(r)));
    List<List<Long>> expected = List.of(enqueued(single.get(0)), enqueued(single.get(1)));
    assertThat(expected.get(0).size() + expected.get(1).size()).isEqualTo(rs.size());
    // the batch: one message per queue, the same requests in the same order
    List<TestProbe<QueueCommand>> batched = List.of(KIT.createTestProbe(), KIT.createTestProbe());
    ActorRef<RouterCommand> all =
        router("batched", List.of(batched.get(0).ref(), batched.get(1).ref()), core.ref());
    all.tell(new FlowProtocol.RouteAll(rs));
    for (int q = 0; q < 2; q++) {
      FlowProtocol.EnqueueAll got =
          batched.get(q).expectMessageClass(FlowProtocol.EnqueueAll.class, WAIT);
      assertThat(got.requests().stream().map(Request::id).toList())
          .as("queue " + q)
          .isEqualTo(expected.get(q));
      batched.get(q).expectNoMessage(Duration.ofMillis(50));
    }

    // their ends: one ExecAll to the core actor, a reap per request, in order
    List<FlowProtocol.Ended> ends = new ArrayList<>();
    for (Request r : rs) {
      int q = expected.get(0).contains(r.id()) ? 0 : 1;
      ends.add(new FlowProtocol.Ended(r, new Completion(r.id(), Status.OK, 0, 0, 0, q), q, q));
    }
    all.tell(new FlowProtocol.EndedAll(ends));
    CoreProtocol.ExecAll work = core.expectMessageClass(CoreProtocol.ExecAll.class, WAIT);
    assertThat(work.work().stream().map(e -> ((Completion) e.message()).id()).toList())
        .containsExactly(0L, 1L, 2L, 3L, 4L);
    core.expectNoMessage(Duration.ofMillis(50));
  }

  /** A page-cache device: every I/O done before execute returns. */
  private record InlineDevice() implements IoDevice {
    @Override
    public CompletionStage<Result> execute(Request r) {
      return CompletableFuture.completedFuture(new Result(Status.OK, new byte[r.length()]));
    }

    @Override
    public String spec() {
      return "inline";
    }
  }

  @Test
  void anInPlaceQueueAnswersABatchDoneInlineWithOneEndedAll() {
    TestProbe<RouterCommand> router = KIT.createTestProbe();
    TestProbe<CoreProtocol.Command> core = KIT.createTestProbe();
    ActorRef<QueueCommand> queue =
        KIT.spawn(
            RequestQueue.create(
                new RequestQueue.Settings(
                    0,
                    0,
                    8,
                    FullRingStrategy.refillOnCompletion(),
                    EnqueueErrorPolicy.FAIL,
                    0,
                    0,
                    false,
                    true,
                    false),
                SeededRandom.root(1).split("faults"),
                Poller.create(
                    new InlineDevice(),
                    SeededRandom.root(1).split("service"),
                    DispatchOrder.fifo(),
                    8,
                    0,
                    core.ref(),
                    SeededRandom.root(1).split("device-faults"),
                    false,
                    false),
                core.ref(),
                router.ref()),
            "in-place");
    List<Request> rs = new ArrayList<>();
    for (long id = 1; id <= 3; id++) {
      rs.add(request(id, null));
    }
    queue.tell(new FlowProtocol.EnqueueAll(rs));
    FlowProtocol.EndedAll ended = router.expectMessageClass(FlowProtocol.EndedAll.class, WAIT);
    assertThat(ended.ends().stream().map(e -> e.request().id()).toList())
        .containsExactly(1L, 2L, 3L);
    assertThat(ended.ends()).allMatch(e -> e.completion().data().length == 4096);
    router.expectNoMessage(Duration.ofMillis(50));
    core.expectNoMessage(Duration.ofMillis(50)); // in place: no work goes through the core
  }
}
