package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
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
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fence (issue #15, item 6): a device that was stopped while the host gave up on its requests
 * never executes them afterwards. One host slot ({@link RemoteQueue}, with this test as its router)
 * bound to a real {@link DeviceQueue} on the {@code file} backend; writes with data, so "executed"
 * is bytes in the file. Two ways a stopped process holds requests, both simulated without stopping
 * anything: its batches still in the socket (a relay holds them), and its I/O queued on the
 * blocking pool (the pool's one thread is held). The host ends them with ECONNABORTED once their
 * fence has passed; then the device resumes and must refuse them, answering ENOTCONN, which
 * reinstates the queue. Without the device's check both writes land.
 */
@Tag("integration")
class FenceTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final Duration SUSPECT_AFTER = Duration.ofMillis(200);
  private static final int BLOCK = 4096;

  // one blocking-pool thread, so that the test can hold it as a stopped process would
  private final ActorTestKit kit =
      ActorTestKit.create(
          ConfigFactory.parseString(
                  """
                  pekko.actor.default-blocking-io-dispatcher {
                    type = Dispatcher
                    executor = thread-pool-executor
                    thread-pool-executor.fixed-pool-size = 1
                  }
                  """)
              .withFallback(ConfigFactory.load()));

  @TempDir Path dir;
  private FileBackend files;

  @AfterEach
  void shutDown() {
    kit.shutdownTestKit();
    if (files != null) {
      files.close();
    }
  }

  /** Forwards batches to {@code to}; after {@code HOLD} keeps them until {@code RELEASE}. */
  private static Behavior<Object> relay(ActorRef<Object> to) {
    return Behaviors.setup(
        ctx -> {
          List<Object> held = new ArrayList<>();
          boolean[] holding = {false};
          return Behaviors.receive(Object.class)
              .onAnyMessage(
                  m -> {
                    if ("HOLD".equals(m)) {
                      holding[0] = true;
                    } else if ("RELEASE".equals(m)) {
                      holding[0] = false;
                      held.forEach(to::tell);
                      held.clear();
                    } else if (holding[0]) {
                      held.add(m);
                    } else {
                      to.tell(m);
                    }
                    return Behaviors.same();
                  })
              .build();
        });
  }

  private record Setup(
      ActorRef<Object> slot, TestProbe<RouterCommand> router, ActorRef<Object> relay) {}

  @SuppressWarnings("unchecked")
  private Setup bound() {
    files = new FileBackend(dir, 1 << 20);
    kit.spawn(
        DeviceQueue.create(new DeviceQueue.Settings(3, 8, new DeviceQueue.FileStore(files))), "q");
    TestProbe<Receptionist.Listing> found = kit.createTestProbe();
    ActorRef<Object> device =
        found.awaitAssert(
            WAIT,
            () -> {
              kit.system().receptionist().tell(Receptionist.find(DeviceQueue.QUEUES, found.ref()));
              var queues = found.receiveMessage(WAIT).getServiceInstances(DeviceQueue.QUEUES);
              assertThat(queues).hasSize(1);
              return (ActorRef<Object>) (ActorRef<?>) queues.iterator().next();
            });
    ActorRef<Object> relay = kit.spawn(relay(device), "relay");
    TestProbe<RouterCommand> router = kit.createTestProbe();
    // one other slot listed: this one may be suspected (the last one listed never is)
    ActorRef<Object> slot =
        kit.spawn(
            RemoteQueue.create(0, router.ref(), 8, SUSPECT_AFTER, new AtomicInteger(1)), "slot");
    slot.tell(new RemoteQueueProtocol.Bind((ActorRef<Request>) (ActorRef<?>) relay));
    assertThat(router.expectMessageClass(QueueListed.class, WAIT))
        .isEqualTo(new QueueListed(0, true));
    // a round trip first: the fence holds from the binding's first one (see RemoteQueue)
    // a cold JVM's first write (file creation, class loading) may take longer than suspect-after:
    // then the slot is suspected (and the write, sent before any round trip, ended at once) and
    // reinstated by the answer; write again until one round trip has been seen
    boolean listed = true;
    for (long id = 1; ; id++) {
      slot.tell(new Enqueue(write(id, 0, (byte) 1)));
      Ended e = null;
      while (e == null) {
        RouterCommand c = router.receiveMessage(WAIT);
        if (c instanceof QueueListed l) {
          listed = l.listed();
        } else {
          e = (Ended) c;
        }
      }
      while (!listed) {
        listed = router.expectMessageClass(QueueListed.class, WAIT).listed();
      }
      if (e.completion().status() == Status.OK) {
        break;
      }
    }
    return new Setup(slot, router, relay);
  }

  private Request write(long id, int block, byte fill) {
    byte[] data = new byte[BLOCK];
    Arrays.fill(data, fill);
    return new Request(
        id,
        Op.WRITE,
        0,
        (long) block * BLOCK,
        BLOCK,
        true,
        0,
        NanoClock.SYSTEM.nanoTime(),
        kit.createTestProbe().ref().unsafeUpcast(),
        true,
        data);
  }

  private byte[] block(int block) {
    ByteBuffer b = ByteBuffer.allocate(BLOCK);
    assertThat(files.read(0, (long) block * BLOCK, b)).isEqualTo(Status.OK);
    return b.array();
  }

  /** The host's side of a silent queue: unlisted, then each given-up request ended ECONNABORTED. */
  private static List<Long> hostGivesUp(TestProbe<RouterCommand> router, int n) {
    assertThat(router.expectMessageClass(QueueListed.class, WAIT))
        .isEqualTo(new QueueListed(0, false));
    List<Long> ended = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Ended e = router.expectMessageClass(Ended.class, WAIT);
      assertThat(e.completion().status())
          .as("sent, then silence: unknown, never ENOTCONN")
          .isEqualTo(Status.ECONNABORTED);
      ended.add(e.request().id());
    }
    return ended;
  }

  private static void reinstated(TestProbe<RouterCommand> router) {
    // the router would send Evacuate; nothing waits here, and the next word is the reinstatement
    assertThat(router.expectMessageClass(QueueListed.class, WAIT))
        .isEqualTo(new QueueListed(0, true));
  }

  @Test
  void batchesThatArriveAfterTheHostGaveUpAreRefusedUnstarted() {
    Setup s = bound();
    NodeMetrics m = NodeMetrics.get(kit.system());
    long fenced = m.events().getOrDefault(DeviceQueue.EVENT_FENCED, 0L);
    long afterEnd = m.events().getOrDefault(RemoteQueue.EVENT_FENCED_AFTER_END, 0L);
    s.relay().tell("HOLD");
    // a client's batch (mqroute load, NBD) has no fence: however late, it is served
    TestProbe<CompletionBatch> client = kit.createTestProbe();
    s.relay()
        .tell(
            new RequestBatch(
                List.of(
                    new Request(
                        40,
                        Op.WRITE,
                        0,
                        5L * BLOCK,
                        BLOCK,
                        true,
                        0,
                        0,
                        null,
                        true,
                        write(0, 0, (byte) 3).data())),
                client.ref()));
    for (int i = 0; i < 4; i++) {
      s.slot().tell(new Enqueue(write(10 + i, 1 + i, (byte) 7)));
    }
    assertThat(hostGivesUp(s.router(), 4)).containsExactlyInAnyOrder(10L, 11L, 12L, 13L);
    // the device "resumes": the batches it had not read yet arrive, the host's older than its fence
    s.relay().tell("RELEASE");
    reinstated(s.router());
    assertThat(client.expectMessageClass(CompletionBatch.class, WAIT).completions())
        .singleElement()
        .extracting(Completion::status)
        .isEqualTo(Status.OK);
    assertThat(block(5)).containsOnly(3);
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(m.events())
                  .containsEntry(DeviceQueue.EVENT_FENCED, fenced + 4)
                  .containsEntry(RemoteQueue.EVENT_FENCED_AFTER_END, afterEnd + 4);
              return null;
            });
    for (int i = 0; i < 4; i++) {
      assertThat(block(1 + i)).as("block %d never written", 1 + i).containsOnly(0);
    }
    // reinstated and serving: a new write lands
    s.slot().tell(new Enqueue(write(20, 9, (byte) 9)));
    assertThat(s.router().expectMessageClass(Ended.class, WAIT).completion().status())
        .isEqualTo(Status.OK);
    assertThat(block(9)).containsOnly(9);
  }

  @Test
  void ioQueuedWhileTheProcessWasStoppedIsRefusedWhenItWouldStart() throws Exception {
    Setup s = bound();
    NodeMetrics m = NodeMetrics.get(kit.system());
    long fenced = m.events().getOrDefault(DeviceQueue.EVENT_FENCED, 0L);
    long afterEnd = m.events().getOrDefault(RemoteQueue.EVENT_FENCED_AFTER_END, 0L);
    // the device's only I/O thread is taken, as if the process had stopped: requests reach the
    // device in time and wait there for their I/O
    Executor blocking = kit.system().dispatchers().lookup(DispatcherSelector.blocking());
    CountDownLatch resume = new CountDownLatch(1);
    CountDownLatch held = new CountDownLatch(1);
    blocking.execute(
        () -> {
          held.countDown();
          try {
            resume.await(30, TimeUnit.SECONDS);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
    assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
    for (int i = 0; i < 3; i++) {
      s.slot().tell(new Enqueue(write(30 + i, 1 + i, (byte) 5)));
    }
    hostGivesUp(s.router(), 3);
    resume.countDown();
    reinstated(s.router());
    kit.createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(m.events())
                  .containsEntry(RemoteQueue.EVENT_FENCED_AFTER_END, afterEnd + 3);
              return null;
            });
    assertThat(m.events()).containsEntry(DeviceQueue.EVENT_FENCED, fenced + 3);
    for (int i = 0; i < 3; i++) {
      assertThat(block(1 + i)).as("block %d never written", 1 + i).containsOnly(0);
    }
  }
}
