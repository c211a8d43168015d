package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One process that is host and device ({@code mqroute node --role host+device}): its router finds
 * the node's own queues through the Receptionist as local actors, and real fio ({@code
 * ioengine=nbd}) writes with crc32c headers through random routing over both queues and reads every
 * block back verified: the queues share the node's data directory. Bounded: every wait has a
 * deadline, the node is killed afterwards.
 */
@Tag("integration")
class HostDeviceNodeTest {
  private static final Duration FORM = Duration.ofSeconds(120);
  private static final int FIO_SECONDS = 120;

  private final NodeProcesses nodes = new NodeProcesses("host-device-test");

  @AfterEach
  void killWhateverIsLeft() {
    nodes.close();
  }

  @Test
  void fioVerifiesEveryBlockThroughBothLocalQueues(@TempDir Path dir) throws Exception {
    assumeTrue(TestNodes.onPath("fio"), "fio is not installed");
    assumeTrue(run(dir, "enghelp", 30, List.of("fio", "--enghelp")).contains("nbd"), "no nbd");
    int base = TestNodes.freeBasePort(0, 1, 1000);
    int nbdPort = base + 1;
    Path data = dir.resolve("data");
    Path config = dir.resolve("node.conf");
    Files.writeString(config, "mqroute.cluster.host.selector = random\n");
    Path nodeLog = dir.resolve("node.log");
    Process node =
        start(
            nodeLog,
            TestNodes.mqroute(
                "node",
                "--role",
                "host+device",
                "--port",
                Integer.toString(base),
                "--plain-tcp",
                "--config",
                config.toString(),
                "--data",
                data.toString(),
                "--nbd",
                "127.0.0.1:" + nbdPort,
                "--export-size",
                "16m"));
    nodes.await(
        FORM,
        Duration.ofMillis(200),
        () -> {
          assertThat(node.isAlive()).as("the node runs: %s", TestNodes.tail(nodeLog)).isTrue();
          JsonNode s = TestNodes.status(base + 1000);
          assertThat(s.get("roles").toString()).contains("\"host\"").contains("\"device\"");
          // the router's two queue actors and the two queues' own gauges
          assertThat(s.get("queues")).hasSize(4);
          assertThat(Files.readString(nodeLog)).contains("NBD export");
          return null;
        });
    String uri = "nbd://127.0.0.1:" + nbdPort;
    String out =
        run(
            dir,
            "fio",
            FIO_SECONDS,
            List.of(
                "fio",
                "--name=w",
                "--ioengine=nbd",
                "--uri=" + uri,
                "--rw=randwrite",
                "--bs=4k",
                "--size=8m",
                "--iodepth=16",
                "--verify=crc32c",
                "--verify_fatal=1"));
    assertThat(out).as(out).contains("err= 0").doesNotContain("verify:").doesNotContain("bad");
    long requests = TestNodes.status(base + 1000).get("requests").asLong();
    assertThat(requests).as("writes and verifying reads through the router").isGreaterThan(4_000);
    try (var files = Files.list(data)) {
      assertThat(files.count()).as("the export's file under --data").isPositive();
    }
  }

  private Process start(Path log, List<String> cmd) throws java.io.IOException {
    return nodes.start(log, cmd);
  }

  private String run(Path dir, String name, int seconds, List<String> cmd) throws Exception {
    return nodes.runToEnd(dir, name, seconds, cmd);
  }
}
