package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #20 with real processes on loopback: two worker nodes ({@code mqroute node --role worker},
 * one slot each, so both get runs) and a client ({@code mqroute run --cluster}), each in a JVM of
 * its own, over mutual TLS. A clustered sweep writes the same files and digest as the same sweep
 * run here; with a worker killed (SIGKILL) in the middle, its run goes to the other worker and the
 * digest is still the same. Bounded: every wait polls with a deadline, every process is killed
 * afterwards.
 */
@Tag("integration")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterSweepTest {
  private static final Duration FORM = Duration.ofSeconds(120);
  private static final int SWEEP_SECONDS = 150;

  /**
   * Two variants, {@code REPS} replications of {@code RUNTIME} each: small, but seconds long. The
   * DPU device draws its service times from the seed, so a run done with the wrong seed shows in
   * the digest (with a fixed-time device it would not).
   */
  private static final String EXPERIMENT =
      """
      name = sweep
      seed = 7
      replications = REPS
      machine { numa-nodes = 1, cores-per-node = 2 }
      queues { kind = per-cpu, ring-size = 8 }
      device = "dpu(1us, 20us, 0.25)"
      workload = \"\"\"
      [global]
      ioengine=io_uring
      rw=randread
      bs=4k
      size=64m
      runtime=RUNTIME
      time_based
      [j]
      iodepth=2
      \"\"\"
      variants = [
        { name = a, router.selector = static-cpu }
        { name = b, router.selector = reduced-v3 }
      ]
      """;

  private final NodeProcesses nodes = new NodeProcesses("cluster-sweep-test");
  private Path dir;
  private int base;

  /**
   * One pair of workers for both tests (the second kills one): starting them is most of the time.
   */
  @BeforeAll
  void startWorkers(@TempDir Path tmp) throws Exception {
    dir = tmp;
    base = workers(dir);
  }

  @AfterAll
  void killWhateverIsLeft() {
    nodes.close();
  }

  @Test
  @Order(1)
  void aClusteredSweepWritesTheSameFilesAndDigestAsALocalOne() throws Exception {
    Path conf = experiment(dir.resolve("same"), 2, "30ms");
    String local = digest(runHere(conf, dir.resolve("same/local")));

    Path log = dir.resolve("same/client.log");
    Process client = client(conf, dir.resolve("same/remote"), log);
    assertThat(client.waitFor(SWEEP_SECONDS, TimeUnit.SECONDS))
        .as("the sweep ended: %s", TestNodes.tail(log))
        .isTrue();
    String out = Files.readString(log);
    assertThat(client.exitValue()).as(out).isZero();
    assertThat(digest(out)).isEqualTo(local);
    assertThat(out).contains("sweep: 4/4 runs done, 0 in flight, 0 failed");
    Path here = dir.resolve("same/local");
    Path there = dir.resolve("same/remote");
    for (String f : files(here)) {
      assertThat(withoutWallClock(there.resolve(f)))
          .as(f)
          .isEqualTo(withoutWallClock(here.resolve(f)));
    }
    assertThat(files(there)).isEqualTo(files(here));
    // both workers ran some, and say so on /status
    long a = sweep(base + 1000).get("runs_done").asLong();
    long b = sweep(base + 1001).get("runs_done").asLong();
    assertThat(a + b).isEqualTo(4);
    assertThat(a).isPositive();
    assertThat(b).isPositive();
    assertThat(sweep(base + 1000).get("slots").asInt()).isEqualTo(1);
  }

  @Test
  @Order(2)
  void aWorkerKilledMidSweepLosesItsRunToTheOtherAndTheDigestStaysTheSame() throws Exception {
    Path conf = experiment(dir.resolve("kill"), 3, "200ms");
    String local = digest(runHere(conf, dir.resolve("kill/local")));
    long before = sweep(base + 1000).get("runs_done").asLong();

    Path log = dir.resolve("kill/client.log");
    Process client =
        client(conf, dir.resolve("kill/remote"), log, "--management-port", "" + (base + 2000));
    // worker B has a run in hand: SIGKILL
    nodes.await(
        FORM,
        Duration.ofMillis(50),
        () -> {
          assertThat(client.isAlive()).as("the sweep runs: %s", TestNodes.tail(log)).isTrue();
          assertThat(sweep(base + 1001).get("running").asInt()).isEqualTo(1);
          // the client's /status: the sweep across the cluster, per worker
          JsonNode c = sweep(base + 2000);
          assertThat(c.get("runs").asInt()).isEqualTo(6);
          assertThat(c.get("workers")).hasSize(2);
          assertThat(c.get("in_flight").asInt()).isPositive();
          return null;
        });
    nodes.get(1).destroyForcibly();
    assertThat(client.waitFor(SWEEP_SECONDS, TimeUnit.SECONDS))
        .as("the sweep ended: %s", TestNodes.tail(log))
        .isTrue();
    String out = Files.readString(log);
    assertThat(client.exitValue()).as(out).isZero();
    assertThat(digest(out)).isEqualTo(local);
    assertThat(out).contains("sweep: 6/6 runs done, 0 in flight, 0 failed");
    assertThat(out).containsPattern("sent again; 127\\.0\\.0\\.1:\\d+ .*\\(lost\\)");
    assertThat(sweep(base + 1000).get("runs_done").asLong() - before)
        .as("the survivor ran the rest, the lost run again among them")
        .isGreaterThan(3);
  }

  private static Path experiment(Path dir, int reps, String runtime) throws IOException {
    Files.createDirectories(dir);
    return Files.writeString(
        dir.resolve("sweep.conf"),
        EXPERIMENT.replace("REPS", Integer.toString(reps)).replace("RUNTIME", runtime));
  }

  /** Keys and two workers of one slot, up and listed; the base port (workers at base, base + 1). */
  private int workers(Path dir) throws IOException {
    int base = TestNodes.freeBasePort(0, 1, 1000, 1001, 2000);
    Path keys = dir.resolve("keys");
    assertThat(
            Main.execute(
                new String[] {"keys", keys.toString()},
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true)))
        .isZero();
    Path config =
        Files.writeString(dir.resolve("worker.conf"), "mqroute.cluster.worker.slots = 1\n");
    String seeds = "127.0.0.1:" + base + ",127.0.0.1:" + (base + 1);
    for (int i = 0; i < 2; i++) {
      start(
          dir.resolve("worker-" + i + ".log"),
          TestNodes.mqroute(
              "node",
              "--role",
              "worker",
              "--port",
              Integer.toString(base + i),
              "--seeds",
              seeds,
              "--keys",
              keys.toString(),
              "--config",
              config.toString()));
    }
    nodes.await(
        FORM,
        Duration.ofMillis(200),
        () -> {
          for (int i = 0; i < 2; i++) {
            assertThat(nodes.get(i).isAlive())
                .as("worker %d runs: %s", i, TestNodes.tail(dir.resolve("worker-" + i + ".log")))
                .isTrue();
            JsonNode s = TestNodes.status(base + 1000 + i);
            assertThat(s.get("nodes").findValuesAsText("status"))
                .as("members")
                .containsExactly("Up", "Up");
            assertThat(s.get("sweep").get("slots").asInt()).isEqualTo(1);
          }
          return null;
        });
    return base;
  }

  private Process client(Path conf, Path out, Path log, String... more) throws IOException {
    List<String> cmd =
        new ArrayList<>(
            TestNodes.mqroute(
                "run",
                conf.toString(),
                "--brief",
                "--out",
                out.toString(),
                "--cluster",
                "127.0.0.1:" + base,
                "--keys",
                dir.resolve("keys").toString()));
    cmd.addAll(List.of(more));
    return start(log, cmd);
  }

  private static String runHere(Path conf, Path out) {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int exit =
        Main.execute(
            new String[] {"run", conf.toString(), "--brief", "--out", out.toString()},
            new PrintWriter(o, true),
            new PrintWriter(e, true));
    assertThat(exit).as(e.toString()).isZero();
    return o.toString();
  }

  private static String digest(String out) {
    Matcher m = Pattern.compile("(?m)^digest: (\\w+)$").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return m.group(1);
  }

  private static JsonNode sweep(int managementPort) throws Exception {
    JsonNode s = TestNodes.status(managementPort).get("sweep");
    assertThat(s).as("/status has the worker's sweep").isNotNull();
    return s;
  }

  private Process start(Path log, List<String> cmd) throws java.io.IOException {
    return nodes.start(log, cmd);
  }

  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  /** A result file without its two wall-clock fields; a plot as its bytes. */
  private static String withoutWallClock(Path f) throws IOException {
    if (f.toString().endsWith(".png")) {
      return java.util.Arrays.toString(Files.readAllBytes(f));
    }
    return Files.readString(f)
        .lines()
        .filter(l -> !l.contains("\"created\"") && !l.contains("\"wall_seconds\""))
        .collect(Collectors.joining("\n"));
  }
}
