package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * DeviceQueue and HostRouter in one local ActorSystem (local Receptionist): no queue, file I/O,
 * overflow.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("integration")
class LocalRoutingTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterAll
  void shutDown() {
    kit.shutdownTestKit();
  }

  private static Request request(
      long id, Op op, long offset, boolean background, ActorRef<Completion> replyTo) {
    return new Request(id, op, 3, offset, 4096, background, 0, 100 + id, replyTo);
  }

  @Test
  void withoutQueuesForegroundEndsWithEinvalAndBackgroundWithEnotconn() {
    // a system of its own: the other test's queue must not be in this Receptionist, whatever the
    // test order
    ActorTestKit alone = ActorTestKit.create("alone");
    try {
      ActorRef<HostRouterProtocol.Command> router =
          alone.spawn(HostRouter.create(HostRouterSettings.defaults()));
      TestProbe<Completion> client = alone.createTestProbe();
      router.tell(new HostRouterProtocol.Submit(request(1, Op.READ, 0, false, client.ref())));
      router.tell(new HostRouterProtocol.Submit(request(2, Op.READ, 0, true, client.ref())));
      Completion fg = client.receiveMessage(WAIT);
      Completion bg = client.receiveMessage(WAIT);
      assertThat(fg.id()).isEqualTo(1);
      assertThat(fg.status()).isEqualTo(Status.EINVAL);
      assertThat(fg.queue()).isEqualTo(-1);
      assertThat(bg.id()).isEqualTo(2);
      assertThat(bg.status()).isEqualTo(Status.ENOTCONN);
    } finally {
      alone.shutdownTestKit();
    }
  }

  @Test
  void requestsThroughTheRouterReachAFileQueueWithARingOfOneAndEachGetsOneCompletion(
      @TempDir Path root) {
    FileBackend files = new FileBackend(root, 1 << 20);
    try {
      // ring of one: all but one request wait in the overflow deque, and still each gets its
      // completion
      kit.spawn(
          DeviceQueue.create(new DeviceQueue.Settings(5, 1, new DeviceQueue.FileStore(files))),
          "file-queue");
      ActorRef<HostRouterProtocol.Command> router =
          kit.spawn(HostRouter.create(HostRouterSettings.defaults()), "router");
      TestProbe<HostRouterProtocol.Slots> slots = kit.createTestProbe();
      slots.awaitAssert(
          WAIT,
          () -> {
            router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
            assertThat(
                    slots.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
                .isEqualTo(1);
            return null;
          });

      TestProbe<Completion> client = kit.createTestProbe();
      int n = 20;
      for (int i = 0; i < n; i++) {
        router.tell(
            new HostRouterProtocol.Submit(
                request(
                    1000 + i, i % 2 == 0 ? Op.WRITE : Op.READ, 4096L * i, false, client.ref())));
      }
      // past the file size limit: the backend's EINVAL comes back unchanged
      router.tell(
          new HostRouterProtocol.Submit(request(2000, Op.READ, 1 << 20, false, client.ref())));
      List<Completion> got = client.receiveSeveralMessages(n + 1, WAIT);
      Set<Long> ids = new HashSet<>();
      for (Completion c : got) {
        assertThat(ids.add(c.id())).as("one completion for %d", c.id()).isTrue();
        assertThat(c.queue()).isEqualTo(5);
        assertThat(c.submitNanos()).isEqualTo(100 + c.id());
        assertThat(c.status()).isEqualTo(c.id() == 2000 ? Status.EINVAL : Status.OK);
      }
      assertThat(ids).hasSize(n + 1);
      assertThat(root.resolve("f-3")).exists();

      router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
      HostRouterProtocol.Slots after = slots.receiveMessage(WAIT);
      assertThat(after.inFlight()).isZero();
      assertThat(after.nrReqs()).allMatch(x -> x == 0);
    } finally {
      files.close();
    }
  }
}
