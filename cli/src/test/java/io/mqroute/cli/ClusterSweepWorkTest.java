package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.cluster.sweep.SweepWork;
import io.mqroute.config.BoundedFiles;
import io.mqroute.experiment.ExperimentParser;
import io.mqroute.experiment.ExperimentRunner;
import io.mqroute.experiment.ExperimentSpec;
import io.mqroute.experiment.RunCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a worker does with an order ({@link ClusterSweep#work}): the experiment's files as the
 * client's parse read them, parsed again under a directory of the worker's own, one run; and what
 * it refuses.
 */
class ClusterSweepWorkTest {
  @TempDir Path dir;

  private static final String JOB = "[j]\nrw=randread\nbs=4k\nsize=1m\niodepth=2\n";

  private record Parsed(ExperimentSpec spec, Map<Path, byte[]> files) {}

  private static Parsed parse(Path conf, Map<String, String> sets) {
    Map<Path, byte[]> files = new LinkedHashMap<>();
    ExperimentSpec spec =
        BoundedFiles.recording(files, () -> ExperimentParser.parse(conf, 3L, sets, false));
    return new Parsed(spec, files);
  }

  @Test
  void aWorkerRunsWhatTheClientWouldWithItsIncludesAndJobFile() throws Exception {
    Path sub = Files.createDirectories(dir.resolve("exp"));
    Files.writeString(sub.resolve("job.fio"), JOB);
    Files.writeString(
        sub.resolve("machine.conf"), "machine { numa-nodes = 1, cores-per-node = 2 }\n");
    Path conf =
        Files.writeString(
            sub.resolve("x.conf"),
            "include \"machine.conf\"\nname = x\nreplications = 2\nworkload = job.fio\n"
                + "device = \"dpu(1us, 20us, 0.25)\"\n");
    Parsed p = parse(conf, Map.of("queues.ring-size", "4"));
    assertThat(p.files().keySet())
        .containsExactlyInAnyOrder(
            conf.toAbsolutePath().normalize(),
            sub.resolve("machine.conf").toAbsolutePath().normalize(),
            sub.resolve("job.fio").toAbsolutePath().normalize());
    List<byte[]> orders =
        ClusterSweep.orders(
            p.spec(),
            p.files(),
            new ClusterSweep.Parse(conf, 3L, Map.of("queues.ring-size", "4"), false));
    assertThat(orders).hasSize(2);
    // the worker must not see the client's files: they are gone before it parses
    Files.delete(sub.resolve("job.fio"));
    Files.delete(sub.resolve("machine.conf"));
    Files.delete(conf);
    for (int r = 0; r < 2; r++) {
      ExperimentRunner.Run there = RunCodec.decode(ClusterSweep.work(orders.get(r)));
      ExperimentRunner.Run here =
          ExperimentRunner.runOne(p.spec(), 0, r, ExperimentRunner.Watcher.NONE);
      assertThat(there.outcome().result().digest()).isEqualTo(here.outcome().result().digest());
    }
  }

  @Test
  void anIncludeOutsideTheOrderIsRefused() throws IOException {
    Path outside = Files.writeString(dir.resolve("outside.conf"), "seed = 5\n");
    Path sub = Files.createDirectories(dir.resolve("exp"));
    Path conf =
        Files.writeString(
            sub.resolve("x.conf"),
            "include file(\""
                + outside.toAbsolutePath()
                + "\")\nname = x\nworkload = \"\"\"\n"
                + JOB
                + "\"\"\"\n");
    Parsed p = parse(conf, Map.of());
    Map<Path, byte[]> onlyTheScript = new LinkedHashMap<>();
    onlyTheScript.put(
        conf.toAbsolutePath().normalize(), p.files().get(conf.toAbsolutePath().normalize()));
    byte[] order =
        ClusterSweep.orders(
                p.spec(), onlyTheScript, new ClusterSweep.Parse(conf, 3L, Map.of(), false))
            .get(0);
    assertThatThrownBy(() -> ClusterSweep.work(order))
        .isInstanceOf(SweepWork.Failed.class)
        .hasMessageContaining("not among the files the order brought");
  }

  @Test
  void aMalformedOrderOrAFileOutsideItsDirectoryIsRefused() throws IOException {
    assertThatThrownBy(() -> ClusterSweep.work(new byte[] {1, 2, 3}))
        .isInstanceOf(SweepWork.Failed.class)
        .hasMessageStartingWith("a malformed order");
    Path conf =
        Files.writeString(
            dir.resolve("x.conf"), "name = x\nworkload = \"\"\"\n" + JOB + "\"\"\"\n");
    Parsed p = parse(conf, Map.of());
    Map<Path, byte[]> escape = Map.of(Path.of("/../../etc/x.conf"), new byte[] {'x'});
    byte[] order =
        new ClusterSweep.Order(
                escape,
                new ClusterSweep.Parse(conf, 3L, Map.of(), false),
                0,
                0,
                p.spec().variants().get(0).id())
            .encode();
    assertThatThrownBy(() -> ClusterSweep.work(order))
        .isInstanceOf(SweepWork.Failed.class)
        .hasMessageContaining("outside its directory");
  }
}
