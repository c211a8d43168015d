package io.mqroute.nbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.mqroute.cluster.DeviceQueue;
import io.mqroute.cluster.DeviceQueueProtocol;
import io.mqroute.cluster.FileBackend;
import io.mqroute.cluster.HostRouter;
import io.mqroute.cluster.HostRouterProtocol;
import io.mqroute.cluster.HostRouterSettings;
import io.mqroute.cluster.load.LoadRunner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A device queue that stops (crashes) under an fio job through NBD: the router ends what it had
 * sent there with ECONNABORTED (fate unknown), the NBD server answers those EIO, and fio ends with
 * the error instead of hanging; the server and the other queue go on serving.
 */
@Tag("integration")
class NbdDeviceLossTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final long SIZE = 64L << 20;

  @TempDir Path tmp;
  private ActorTestKit kit;
  private final List<FileBackend> files = new ArrayList<>();

  @AfterEach
  void stop() {
    if (kit != null) { // null when the test skipped before starting it (no fio)
      kit.shutdownTestKit();
    }
    files.forEach(FileBackend::close);
  }

  @Test
  void aQueueLostMidJobNeverHangsTheClient() throws Exception {
    assumeTrue(ExternalTool.find("fio") != null, "fio is not installed");
    assumeTrue(
        ExternalTool.run(30, "fio", "--enghelp").output().contains("nbd"),
        "this fio has no nbd engine");
    kit = ActorTestKit.create();
    Path data = tmp.resolve("data");
    Files.createDirectories(data);
    List<ActorRef<DeviceQueueProtocol.Command>> queues = new ArrayList<>();
    // queue 0 holds every request 200 ms (a slow device), so it has some in flight when it stops;
    // queue 1 is the file backend that serves on
    queues.add(
        kit.spawn(
            DeviceQueue.create(
                new DeviceQueue.Settings(
                    0, 16, new DeviceQueue.NullBackend(Duration.ofMillis(200)))),
            "q0"));
    FileBackend f = new FileBackend(data, SIZE);
    files.add(f);
    queues.add(
        kit.spawn(
            DeviceQueue.create(new DeviceQueue.Settings(1, 16, new DeviceQueue.FileStore(f))),
            "q1"));
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(HostRouter.create(new HostRouterSettings("round-robin", 64, 1, 64)), "router");
    TestProbe<HostRouterProtocol.Slots> slots = kit.createTestProbe();
    slots.awaitAssert(
        WAIT,
        () -> {
          router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
          assertThat(slots.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
              .isEqualTo(2);
          return null;
        });
    NbdServer server =
        NbdServer.startAndWait(
            NbdServerSettings.loopback(0),
            new RouterBackend(
                kit.system(), LoadRunner.awaitRouters(kit.system(), WAIT).get(0), SIZE, 0),
            WAIT);
    String uri = "nbd://127.0.0.1:" + server.address().getPort();
    CompletableFuture<ExternalTool.Result> fio =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return ExternalTool.run(
                    120,
                    "fio",
                    "--name=loss",
                    "--ioengine=nbd",
                    "--uri=" + uri,
                    "--rw=randwrite",
                    "--bs=4k",
                    "--size=16m",
                    "--iodepth=16",
                    "--time_based",
                    "--runtime=30");
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    TestProbe<DeviceQueueProtocol.Stats> stats = kit.createTestProbe();
    stats.awaitAssert(
        WAIT,
        () -> {
          queues.get(0).tell(new DeviceQueueProtocol.GetStats(stats.ref()));
          assertThat(stats.receiveMessage(WAIT).completed()).isGreaterThan(20);
          return null;
        });
    assertThat(fio).isNotDone();
    kit.stop(queues.get(0), WAIT);
    // fio stops at its first error, long before its run time ends
    ExternalTool.Result r = fio.get(90, TimeUnit.SECONDS);
    assertThat(r.exit())
        .as("fio ended by itself, with an error: " + r.output())
        .isNotEqualTo(-1)
        .isNotZero();
    assertThat(r.output()).containsPattern("err= ?5|Input/output error");
    // the server and the other queue serve on
    try (RawNbdClient c = new RawNbdClient(server.address())) {
      c.go();
      byte[] block = new byte[4096];
      block[0] = 9;
      c.request(NbdWire.CMD_WRITE, 1, 0, 4096, block);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 1));
      c.request(NbdWire.CMD_READ, 2, 0, 4096, null);
      assertThat(c.reply()).isEqualTo(new RawNbdClient.Reply(0, 2));
      assertThat(c.readData(4096)).isEqualTo(block);
    }
    server.close();
  }
}
