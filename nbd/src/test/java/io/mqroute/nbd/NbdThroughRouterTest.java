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
import io.mqroute.protocol.Request;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real clients through the router: the NBD server in front of a host router with random routing
 * over two device queues with the file backend on one data directory (one backing store per
 * router), in one JVM as VerifyThroughRouterTest runs them. Every block a client wrote reads back
 * as written whichever queue serves the read.
 */
@Tag("integration")
class NbdThroughRouterTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final long SIZE = 64L << 20;

  @TempDir static Path tmp;
  private static ActorTestKit kit;
  private static NbdServer server;
  private static String uri;
  private static final List<FileBackend> files = new ArrayList<>();
  private static final List<ActorRef<DeviceQueueProtocol.Command>> queues = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    kit = ActorTestKit.create();
    Path data = tmp.resolve("data");
    Files.createDirectories(data);
    for (int i = 0; i < 2; i++) {
      FileBackend f = new FileBackend(data, SIZE);
      files.add(f);
      queues.add(
          kit.spawn(
              DeviceQueue.create(new DeviceQueue.Settings(i, 16, new DeviceQueue.FileStore(f))),
              "q" + i));
    }
    // random routing: reads go to the other queue than their write about half of the time. This
    // test is about the data through the router, not faults: a cold first write on CI's starved
    // runner can outlast the default suspect-after's give-up (2 x 250 ms), and what the host gives
    // up on reaches qemu-img as EIO (seen once in a full verify at load average ~27)
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(
            HostRouter.create(
                new HostRouterSettings("random", 64, 1, 64)
                    .withSuspectAfter(Duration.ofSeconds(5))),
            "router");
    TestProbe<HostRouterProtocol.Slots> slots = kit.createTestProbe();
    slots.awaitAssert(
        WAIT,
        () -> {
          router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
          assertThat(slots.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
              .isEqualTo(2);
          return null;
        });
    ActorRef<Request> entry = LoadRunner.awaitRouters(kit.system(), WAIT).get(0);
    server =
        NbdServer.startAndWait(
            NbdServerSettings.loopback(0), new RouterBackend(kit.system(), entry, SIZE, 0), WAIT);
    uri = "nbd://127.0.0.1:" + server.address().getPort();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    kit.shutdownTestKit();
    files.forEach(FileBackend::close);
  }

  private static long served(int queue) {
    TestProbe<DeviceQueueProtocol.Stats> stats = kit.createTestProbe();
    queues.get(queue).tell(new DeviceQueueProtocol.GetStats(stats.ref()));
    return stats.receiveMessage(WAIT).completed();
  }

  @Test
  void qemuIoWritesAPatternAndReadsItBackThroughBothQueues() throws Exception {
    assumeTrue(ExternalTool.find("qemu-io") != null, "qemu-io is not installed");
    long before0 = served(0);
    long before1 = served(1);
    ExternalTool.Result r =
        ExternalTool.run(
            60,
            "qemu-io",
            "-f",
            "raw",
            "-c",
            "write -P 0xab 0 64k",
            "-c",
            "read -P 0xab 0 64k",
            "-c",
            "write -P 0x3c 1m 1m",
            "-c",
            "read -P 0x3c 1m 1m",
            "-c",
            "flush",
            uri);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).doesNotContain("Pattern verification failed");
    // 64 KiB and 1 MiB, each way, in 32 KiB requests, plus a flush
    assertThat(served(0) - before0).as("queue 0 served some").isPositive();
    assertThat(served(1) - before1).as("queue 1 served some").isPositive();
  }

  @Test
  void fioVerifiesEveryBlockItWroteThroughTheRouter() throws Exception {
    assumeTrue(ExternalTool.find("fio") != null, "fio is not installed");
    assumeTrue(
        ExternalTool.run(30, "fio", "--enghelp").output().contains("nbd"),
        "this fio has no nbd engine");
    ExternalTool.Result r =
        ExternalTool.run(
            120,
            "fio",
            "--name=verify",
            "--ioengine=nbd",
            "--uri=" + uri,
            "--rw=randwrite",
            "--bs=4k",
            "--offset=16m",
            "--size=8m",
            "--iodepth=16",
            "--verify=crc32c",
            "--do_verify=1",
            "--verify_fatal=1",
            "--verify_state_save=0");
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("err= 0");
  }

  @Test
  void qemuImgConvertsAnImageInAndOutWithTheSameSha256() throws Exception {
    assumeTrue(ExternalTool.find("qemu-img") != null, "qemu-img is not installed");
    Path in = tmp.resolve("in.raw");
    Path out = tmp.resolve("out.raw");
    byte[] image = new byte[16 << 20];
    new java.util.Random(17).nextBytes(image);
    Files.write(in, image);
    ExternalTool.Result w =
        ExternalTool.run(
            120, "qemu-img", "convert", "-n", "-f", "raw", "-O", "raw", in.toString(), uri);
    assertThat(w.exit()).as(w.output()).isZero();
    // read back only the image's 16 MiB of the export
    ExternalTool.Result r =
        ExternalTool.run(
            120,
            "qemu-img",
            "convert",
            "-O",
            "raw",
            "--image-opts",
            "driver=raw,size="
                + image.length
                + ",file.driver=nbd,file.host=127.0.0.1,file.port="
                + server.address().getPort(),
            out.toString());
    assertThat(r.exit()).as(r.output()).isZero();
    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
    assertThat(sha.digest(Files.readAllBytes(out))).isEqualTo(sha.digest(image));
  }

  @Test
  void nbdinfoReportsTheExport() throws Exception {
    assumeTrue(ExternalTool.find("nbdinfo") != null, "nbdinfo is not installed");
    ExternalTool.Result r = ExternalTool.run(60, "nbdinfo", uri);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("export-size: " + SIZE).contains("block_size_maximum: 32768");
  }
}
