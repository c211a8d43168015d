package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.ClusterKeys;
import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeMetrics;
import io.mqroute.cluster.NodeSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mqroute load} against a host and a file-backed device started in this JVM: it joins, runs
 * the job to the end and prints fio's text, the table and the summary, and writes the JSON and the
 * text with --out.
 */
@Tag("integration")
class LoadCommandTest {
  private final List<ActorSystem<Void>> nodes = new ArrayList<>();

  /** The test cluster's keys: the nodes and the load client run Artery over mutual TLS. */
  @TempDir static Path keyRoot;

  private static Path keys() {
    Path k = keyRoot.resolve("keys");
    if (!Files.exists(k)) {
      ClusterKeys.create(k);
    }
    return k;
  }

  private static Config node(String extra) {
    return ConfigFactory.parseString(
            """
        pekko.remote.artery.canonical.port = 0
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.management.http.port = -1
        pekko.loglevel = WARNING
        pekko.log-dead-letters = off
        """
                + extra)
        .withFallback(ClusterKeys.artery(keys()))
        .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  @AfterEach
  void stop() {
    nodes.forEach(ActorSystem::terminate);
    nodes.forEach(n -> ClusterNode.awaitTermination(n, Duration.ofSeconds(30)));
  }

  @Test
  void aJobRunsAgainstTheClusterAndIsReportedLikeRun(@TempDir Path dir) throws Exception {
    Path data = Files.createDirectories(dir.resolve("data"));
    ActorSystem<Void> host =
        ClusterNode.start(NodeSettings.Role.HOST, node("pekko.cluster.roles = [host]")).system();
    nodes.add(host);
    ActorSystem<Void> device =
        ClusterNode.start(
                NodeSettings.Role.DEVICE,
                node(
                    """
        pekko.cluster.roles = [device]
        mqroute.cluster.device { backend = file, file-root = "%s", file-max-bytes = 4MiB }
        """
                        .formatted(data.toString().replace("\\", "\\\\"))))
            .system();
    nodes.add(device);
    Address hostAddress = Cluster.get(host).selfMember().address();
    Cluster.get(host).manager().tell(Join.create(hostAddress));
    Cluster.get(device).manager().tell(Join.create(hostAddress));

    Path job = dir.resolve("job.fio");
    Files.writeString(
        job,
        """
        [global]
        ioengine=libaio
        bs=4k
        size=1m

        [writes]
        rw=randwrite
        iodepth=8
        """);
    Path out = dir.resolve("out");
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    // the router has a gauge per queue it routes to: both device queues in its slots, or fail after
    // a minute
    ActorTestKit.create(host)
        .createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(60),
            () -> {
              assertThat(NodeMetrics.get(host).queues()).hasSize(2);
              return null;
            });
    int exit =
        Main.execute(
            new String[] {
              "load",
              "--seeds",
              "127.0.0.1:" + hostAddress.getPort().get(),
              "--keys",
              keys().toString(),
              job.toString(),
              "--out",
              out.toString()
            },
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true));
    assertThat(exit).as(stderr.toString()).isZero();
    String text = stdout.toString();
    assertThat(text)
        .contains(
            "writes: (groupid=0, jobs=1)",
            "write: IOPS=",
            "Run status group 0",
            "p99.9 us",
            "summary: 256 requests",
            "256 OK, 0 errors");
    assertThat(Files.readString(out.resolve("load.fio.json"))).contains("\"jobname\" : \"writes\"");
    assertThat(Files.readString(out.resolve("load.txt"))).contains("summary: 256 requests");
    assertThat(Files.size(data.resolve("f-1")))
        .as("the device wrote the clone's file")
        .isEqualTo(4 << 20);
  }
}
