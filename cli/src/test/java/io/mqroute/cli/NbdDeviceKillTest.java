package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue #17's fault check with real parts: a host node serving NBD and two device nodes on one
 * shared data directory, each in a process of its own, driven by real fio ({@code ioengine=nbd}).
 * Data written and acknowledged first; then device B gets SIGKILL in the middle of a second write
 * job, which must end by itself with an I/O error (never hang); device B is started again on the
 * same directory, and fio's {@code verify_only} reads the first job's blocks back through the
 * router's round robin (both devices, the restarted one included): 0 verify errors. Bounded: every
 * wait polls with a deadline, every process is killed afterwards.
 */
@Tag("integration")
class NbdDeviceKillTest {
  private static final Duration FORM = Duration.ofSeconds(150);
  private static final int FIO_SECONDS = 120;

  private final NodeProcesses nodes = new NodeProcesses("nbd-kill-test");
  private Process host;

  @AfterEach
  void killWhateverIsLeft() {
    nodes.close();
  }

  @Test
  void aDeviceKilledUnderFioEndsTheJobWithEioAndAcknowledgedDataReadsBackAfterItsRestart(
      @TempDir Path dir) throws Exception {
    assumeTrue(TestNodes.onPath("fio"), "fio is not installed");
    assumeTrue(run(dir, "enghelp", 30, "fio", "--enghelp").contains("nbd"), "fio has no nbd");
    int base = TestNodes.freeBasePort(0, 1, 2, 3, 1000, 1001, 1002);
    int nbdPort = base + 3;
    String seeds = "127.0.0.1:" + base + ",127.0.0.1:" + (base + 1);
    Path keys = dir.resolve("keys");
    assertThat(
            Main.execute(
                new String[] {"keys", keys.toString()},
                new PrintWriter(new StringWriter(), true),
                new PrintWriter(new StringWriter(), true)))
        .isZero();
    Path data = dir.resolve("data");
    Files.createDirectories(data);
    // a starved CI runner (other process-spawning tests beside this one on 2 cores) can pause a
    // live device longer than the default suspect-after's give-up time; this test is about a kill
    Path config = dir.resolve("node.conf");
    Files.writeString(config, "mqroute.cluster.host.suspect-after = 1s\n");
    host = node(dir, "host", base, seeds, keys, config, "--nbd", "127.0.0.1:" + nbdPort);
    node(dir, "device-a", base + 1, seeds, keys, config, "--data", data.toString());
    // device B, on the same directory, its queues from 16 on; started again after its SIGKILL
    java.util.function.Function<String, Process> startDeviceB =
        name -> {
          try {
            return node(
                dir,
                name,
                base + 2,
                seeds,
                keys,
                config,
                "--data",
                data.toString(),
                "--first-queue",
                "16");
          } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
        };
    Process deviceB = startDeviceB.apply("device-b");
    awaitQueues(base + 1000, 4, dir, true);
    String uri = "nbd://127.0.0.1:" + nbdPort;

    // 1. acknowledged: 8 MiB written in order, every block carrying its crc32c header
    String written =
        run(dir, "fio-write", FIO_SECONDS, fio(uri, "acked", "write", 0, "--verify=crc32c"));
    assertThat(written).as(written).contains("err= 0");

    // 2. device B is killed under a second write job, elsewhere on the export
    Path log = dir.resolve("fio-kill.log");
    Process load =
        start(log, fio(uri, "victim", "randwrite", 16 << 20, "--time_based", "--runtime=90"));
    long before = requests(base + 1000);
    nodes.await(
        FORM,
        Duration.ofMillis(100),
        () -> {
          assertThat(load.isAlive()).as("fio runs: %s", TestNodes.tail(log)).isTrue();
          assertThat(requests(base + 1000)).isGreaterThan(before + 2_000);
          return null;
        });
    deviceB.destroyForcibly(); // SIGKILL
    assertThat(load.waitFor(FIO_SECONDS, TimeUnit.SECONDS))
        .as("fio ended by itself after the kill: %s", TestNodes.tail(log))
        .isTrue();
    String killed = Files.readString(log);
    assertThat(load.exitValue()).as(killed).isNotZero();
    assertThat(killed).containsPattern("err= ?5|Input/output error");

    // 3. device B again, on the same directory, once the host has seen the old one's queues go
    // (unreachable: seconds; its queues were out of the masks already, suspected): what was
    // acknowledged reads back intact, a quarter of it through the new device B
    awaitQueues(base + 1000, 2, dir, false);
    startDeviceB.apply("device-b2");
    awaitQueues(base + 1000, 4, dir, true);
    String verified =
        run(
            dir,
            "fio-verify",
            FIO_SECONDS,
            fio(uri, "acked", "write", 0, "--verify=crc32c", "--verify_only=1"));
    System.out.print(verified);
    assertThat(verified).as(verified).contains("err= 0").doesNotContain("verify: bad");
    assertThat(requests(base + 1000) - before)
        .as("the verify read 8 MiB through the router")
        .isGreaterThan(2_048);
  }

  /** A fio job over 8 MiB of the export at {@code offset}: 4 KiB blocks, iodepth 16. */
  private static List<String> fio(String uri, String name, String rw, long offset, String... more) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                "fio",
                "--name=" + name,
                "--ioengine=nbd",
                "--uri=" + uri,
                "--rw=" + rw,
                "--bs=4k",
                "--offset=" + offset,
                "--size=8m",
                "--iodepth=16"));
    cmd.addAll(List.of(more));
    return cmd;
  }

  private Process node(
      Path dir, String name, int port, String seeds, Path keys, Path config, String... more)
      throws IOException {
    List<String> cmd =
        new ArrayList<>(
            TestNodes.mqroute(
                "node",
                "--role",
                name.startsWith("host") ? "host" : "device",
                "--port",
                Integer.toString(port),
                "--seeds",
                seeds,
                "--keys",
                keys.toString(),
                "--config",
                config.toString()));
    cmd.addAll(List.of(more));
    return start(dir.resolve(name + ".log"), cmd);
  }

  private Process start(Path log, List<String> cmd) throws java.io.IOException {
    return nodes.start(log, cmd);
  }

  /** Runs a command to its end (at most {@code seconds}) and returns what it printed. */
  private String run(Path dir, String name, int seconds, List<String> cmd) throws Exception {
    return nodes.runToEnd(dir, name, seconds, cmd);
  }

  private String run(Path dir, String name, int seconds, String... cmd) throws Exception {
    return run(dir, name, seconds, List.of(cmd));
  }

  /**
   * The host's router lists {@code queues} queues (and, if {@code settled}, every member is up).
   */
  private void awaitQueues(int managementPort, int queues, Path dir, boolean settled) {
    nodes.await(
        FORM,
        Duration.ofMillis(200),
        () -> {
          assertThat(host.isAlive())
              .as("the host runs: %s", TestNodes.tail(dir.resolve("host.log")))
              .isTrue();
          JsonNode s = TestNodes.status(managementPort);
          assertThat(s.get("queues")).as("queues in the host's router").hasSize(queues);
          if (!settled) {
            return null;
          }
          assertThat(s.get("nodes").findValuesAsText("status"))
              .as("member status")
              .containsOnly("Up");
          assertThat(s.get("nodes").findValuesAsText("reachable"))
              .as("members reachable")
              .containsOnly("true");
          return null;
        });
  }

  private static long requests(int managementPort) throws IOException, InterruptedException {
    return TestNodes.status(managementPort).get("requests").asLong();
  }
}
