package io.mqroute.cluster.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.cluster.DeviceQueue;
import io.mqroute.cluster.DeviceQueueProtocol;
import io.mqroute.cluster.FileBackend;
import io.mqroute.cluster.HostRouter;
import io.mqroute.cluster.HostRouterProtocol;
import io.mqroute.cluster.HostRouterSettings;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.workload.FioJobFile;
import io.mqroute.workload.FioJobParser;
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
 * Read-your-writes through random routing: an fio job with {@code verify=} writes and reads back
 * through a round-robin router over two device queues with the file backend. On one data directory
 * (one backing store per router) every block reads back as written; on a directory per device —
 * what cluster-demo did before — reads served by the other queue return other bytes, and verify
 * says so.
 */
@Tag("integration")
class VerifyThroughRouterTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String JOB =
      """
      [global]
      ioengine=libaio
      bs=4k
      size=1m
      verify=%s
      [w]
      rw=%s
      iodepth=8
      numjobs=2
      """;

  @TempDir Path tmp;
  private ActorTestKit kit;
  private final List<FileBackend> backends = new ArrayList<>();
  private final List<ActorRef<DeviceQueueProtocol.Command>> queues = new ArrayList<>();

  private ActorRef<DeviceQueueProtocol.Command> queue(int i) {
    return queues.get(i);
  }

  @AfterEach
  void stop() {
    if (kit != null) {
      kit.shutdownTestKit();
    }
    backends.forEach(FileBackend::close);
  }

  private List<ActorRef<Request>> routerOver(Path dirA, Path dirB) throws Exception {
    return routerOver(dirA, dirB, false);
  }

  /** {@code inlineA}: queue 0 does its file I/O on its own thread (file-io = inline). */
  private List<ActorRef<Request>> routerOver(Path dirA, Path dirB, boolean inlineA)
      throws Exception {
    kit = ActorTestKit.create();
    int index = 0;
    for (Path dir : List.of(dirA, dirB)) {
      Files.createDirectories(dir);
      FileBackend files = new FileBackend(dir, 1 << 20);
      backends.add(files);
      queues.add(
          kit.spawn(
              DeviceQueue.create(
                  new DeviceQueue.Settings(
                      index,
                      8,
                      new DeviceQueue.FileStore(
                          files,
                          inlineA && index == 0
                              ? DeviceQueue.FileIoMode.INLINE
                              : DeviceQueue.FileIoMode.POOL))),
              "q" + index++));
    }
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(HostRouter.create(HostRouterSettings.defaults()), "router");
    TestProbe<HostRouterProtocol.Slots> slots = kit.createTestProbe();
    slots.awaitAssert(
        WAIT,
        () -> {
          router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
          assertThat(slots.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
              .isEqualTo(2);
          return null;
        });
    return LoadRunner.awaitRouters(kit.system(), WAIT);
  }

  private LoadRunner.Result run(String kind, String rw, Path a, Path b) throws Exception {
    FioJobFile file = FioJobParser.parse("verify.fio", JOB.formatted(kind, rw));
    List<ActorRef<Request>> routers = routerOver(a, b);
    return LoadRunner.run(kit.system(), file, routers, WAIT, WAIT);
  }

  @Test
  void onOneDataDirectoryEveryBlockReadsBackAsWritten() throws Exception {
    Path data = tmp.resolve("data");
    for (String kind : List.of("md5", "crc32c")) {
      LoadRunner.Result r = run(kind, "randrw", data, data);
      System.out.printf(
          "VerifyThroughRouterTest: verify=%s, %d requests, %d blocks checked, %d errors%n",
          kind, r.requests(), r.verify().checked(), r.verify().errors());
      assertThat(r.byStatus()).containsOnlyKeys(Status.OK);
      assertThat(r.verify().errors()).as(String.join("\n", r.verify().first())).isZero();
      // the verify phase reads back every acknowledged block: at least the blocks written
      assertThat(r.verify().checked()).isGreaterThan(100);
      stop();
      kit = null;
      backends.clear();
      queues.clear();
    }
  }

  @Test
  void anInlineQueueAndAPoolQueueOverOneDirectoryReadBackAsWritten() throws Exception {
    Path data = tmp.resolve("data");
    FioJobFile file = FioJobParser.parse("verify.fio", JOB.formatted("crc32c", "randrw"));
    List<ActorRef<Request>> routers = routerOver(data, data, true);
    LoadRunner.Result r = LoadRunner.run(kit.system(), file, routers, WAIT, WAIT);
    System.out.printf(
        "VerifyThroughRouterTest: inline + pool queues, %d requests, %d blocks checked, %d"
            + " errors%n",
        r.requests(), r.verify().checked(), r.verify().errors());
    assertThat(r.byStatus()).containsOnlyKeys(Status.OK);
    assertThat(r.verify().errors()).as(String.join("\n", r.verify().first())).isZero();
    assertThat(r.verify().checked()).isGreaterThan(100);
    // both queues served: round robin over two, and the inline one is not bypassed
    assertThat(backends.get(0).openChannels()).isPositive();
  }

  @Test
  void aDirectoryPerDeviceBreaksReadYourWritesAndVerifySaysSo() throws Exception {
    LoadRunner.Result r = run("md5", "randwrite", tmp.resolve("device-a"), tmp.resolve("device-b"));
    assertThat(r.byStatus()).containsOnlyKeys(Status.OK);
    assertThat(r.verify().errors())
        .as("round robin sends about half the read-backs to the queue that did not take the write")
        .isGreaterThan(r.verify().checked() / 4);
    // the other queue has zeros there, or an older write of a block written twice
    assertThat(r.verify().first().get(0))
        .containsAnyOf("verify: bad magic header 0", "stale block");
  }

  @Test
  void aSequentialWriteThenVerifyChecksEveryBlockOnce() throws Exception {
    Path data = tmp.resolve("data");
    LoadRunner.Result r = run("sha256", "write", data, data);
    // 2 clones x 1 MiB / 4 KiB: every block written once, then read back once
    assertThat(r.verify().checked()).isEqualTo(2 * 256);
    assertThat(r.verify().errors()).isZero();
    assertThat(r.requests()).isEqualTo(2 * 2 * 256);
  }

  @Test
  void dataAcknowledgedBeforeADeviceRestartReadsBackAfterIt() throws Exception {
    Path data = tmp.resolve("data");
    List<ActorRef<Request>> routers = routerOver(data, data);
    FioJobFile file =
        FioJobParser.parse(
            "restart.fio",
            """
            [w]
            ioengine=libaio
            rw=randwrite
            bs=4k
            size=1m
            verify=crc32c
            iodepth=8
            numjobs=2
            loops=100
            """);
    CompletableFuture<LoadRunner.Result> load =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return LoadRunner.run(kit.system(), file, routers, WAIT, WAIT);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    // once queue 0 has served some writes, stop it (its requests in flight end ECONNABORTED:
    // unknown content, not checked) and start it again on the same directory
    ActorRef<DeviceQueueProtocol.Command> first = queue(0);
    TestProbe<DeviceQueueProtocol.Stats> stats = kit.createTestProbe();
    stats.awaitAssert(
        WAIT,
        () -> {
          first.tell(new DeviceQueueProtocol.GetStats(stats.ref()));
          assertThat(stats.receiveMessage(WAIT).completed()).isGreaterThan(500);
          return null;
        });
    assertThat(load).isNotDone();
    kit.stop(first, WAIT);
    FileBackend again = new FileBackend(data, 1 << 20);
    backends.add(again);
    ActorRef<DeviceQueueProtocol.Command> restarted =
        kit.spawn(
            DeviceQueue.create(new DeviceQueue.Settings(0, 8, new DeviceQueue.FileStore(again))),
            "q0-again");
    LoadRunner.Result r = load.get(WAIT.toSeconds(), TimeUnit.SECONDS);
    restarted.tell(new DeviceQueueProtocol.GetStats(stats.ref()));
    long servedAfter = stats.receiveMessage(WAIT).completed();
    System.out.printf(
        "VerifyThroughRouterTest: restart: %s, %d blocks checked, %d errors, %d served by the"
            + " restarted queue%n",
        r.byStatus(), r.verify().checked(), r.verify().errors(), servedAfter);
    r.verify().first().forEach(System.out::println);
    assertThat(r.byStatus()).containsKey(Status.OK);
    // requests in flight on the stopped queue may end ECONNABORTED (their blocks are then not
    // checked)
    assertThat(r.byStatus().keySet()).isSubsetOf(Status.OK, Status.ECONNABORTED);
    assertThat(servedAfter).as("the restarted queue took requests").isPositive();
    assertThat(r.verify().checked()).isGreaterThan(100);
    assertThat(r.verify().errors()).as(String.join("\n", r.verify().first())).isZero();
  }
}
