package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.experiment.report.ResultFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCodecTest {
  @TempDir Path tmp;

  /**
   * Two variants, two replications, a short run: every file a local run writes, from shipped runs.
   */
  @Test
  void shippedRunsWriteTheSameFilesAsALocalRun() throws IOException {
    Path conf =
        Files.writeString(
            tmp.resolve("tiny.conf"),
            """
            name = tiny
            seed = 7
            replications = 2
            machine { numa-nodes = 1, cores-per-node = 2 }
            queues { kind = per-cpu, ring-size = 8 }
            device = "dpu(1us, 20us, 0.25)"
            workload = \"\"\"
            [global]
            ioengine=io_uring
            rw=randread
            bs=4k
            size=64m
            runtime=20ms
            time_based
            [j]
            iodepth=2
            write_lat_log=j
            write_bw_log=j
            log_avg_msec=5
            \"\"\"
            variants = [
              { name = a, router.selector = static-cpu }
              { name = b, router.selector = reduced-v3 }
            ]
            """);
    ExperimentSpec spec = ExperimentParser.parse(conf, null, Map.of(), false);
    ExperimentResult local = ExperimentRunner.run(spec, 1, x -> {});
    List<List<ExperimentRunner.Run>> shipped = new ArrayList<>();
    for (int v = 0; v < spec.variants().size(); v++) {
      List<ExperimentRunner.Run> reps = new ArrayList<>();
      for (int r = 0; r < spec.replications(); r++) {
        byte[] bytes =
            RunCodec.encode(ExperimentRunner.runOne(spec, v, r, ExperimentRunner.Watcher.NONE));
        reps.add(RunCodec.decode(bytes));
      }
      shipped.add(reps);
    }
    ExperimentResult remote = ExperimentRunner.assemble(spec, shipped, x -> {});
    assertThat(remote.digest()).isEqualTo(local.digest());

    Instant t = Instant.parse("2026-01-01T00:00:00Z");
    ResultFiles.jsonPlus(true);
    try {
      ResultFiles a = ResultFiles.create(tmp.resolve("local"), "tiny", t);
      a.write(local);
      ResultFiles b = ResultFiles.create(tmp.resolve("remote"), "tiny", t);
      b.write(remote);
      List<String> names = files(a.dir());
      assertThat(names).contains("result.json", "a.fio.json", "results.csv");
      assertThat(files(b.dir())).isEqualTo(names);
      for (String n : names) {
        assertThat(withoutWallClock(b.dir().resolve(n)))
            .as(n)
            .isEqualTo(withoutWallClock(a.dir().resolve(n)));
      }
    } finally {
      ResultFiles.jsonPlus(false);
    }
  }

  @Test
  void bytesOfAnotherBuildOrTruncatedOrGarbageAreRefused() throws IOException {
    Path conf =
        Files.writeString(
            tmp.resolve("t.conf"), "name = t\nworkload = \"[j]\\nrw=read\\nsize=64k\\n\"\n");
    ExperimentSpec spec = ExperimentParser.parse(conf, null, Map.of(), false);
    byte[] good =
        RunCodec.encode(ExperimentRunner.runOne(spec, 0, 0, ExperimentRunner.Watcher.NONE));
    assertThat(RunCodec.decode(good).outcome().result().digest()).isNotEmpty();
    assertThatThrownBy(() -> RunCodec.decode(Arrays.copyOf(good, good.length / 2)))
        .isInstanceOf(RunCodec.Malformed.class);
    assertThatThrownBy(() -> RunCodec.decode(new byte[] {1, 2, 3}))
        .isInstanceOf(RunCodec.Malformed.class);
    assertThatThrownBy(() -> RunCodec.decode(new byte[0])).isInstanceOf(RunCodec.Malformed.class);
  }

  /** A count a peer claims is believed only as far as the bytes left could hold it. */
  @Test
  void claimedCountsBeyondTheBytesLeftAreRefusedBeforeAnythingIsAllocated() {
    Kryo k = RunCodec.kryo();
    for (Class<?> c :
        List.of(
            long[].class,
            double[].class,
            int[].class,
            String[].class,
            String.class,
            ArrayList.class)) {
      Output o = new Output(16);
      o.writeVarInt(Kryo.NOT_NULL, true); // a new object, not a reference to one read before
      o.writeVarInt(1 << 30, true);
      o.writeLong(0);
      assertThatThrownBy(() -> k.readObject(new Input(o.toBytes()), c))
          .as(c.getSimpleName())
          .isInstanceOf(KryoException.class)
          .hasMessageContaining("elements in 8 bytes");
    }
  }

  @Test
  void aResultThatInflatesPastTheLimitIsRefused() {
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION);
    d.setInput(new byte[RunCodec.MAX_BYTES + (1 << 20)]);
    d.finish();
    byte[] buf = new byte[1 << 20];
    int n = d.deflate(buf);
    assertThat(d.finished()).isTrue();
    byte[] bomb = Arrays.copyOf(buf, n);
    assertThatThrownBy(() -> RunCodec.decode(bomb))
        .isInstanceOf(RunCodec.Malformed.class)
        .hasMessageContaining("inflating to more than");
  }

  private static List<String> files(Path dir) throws IOException {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.filter(Files::isRegularFile)
          .map(p -> dir.relativize(p).toString())
          .sorted()
          .toList();
    }
  }

  private static String withoutWallClock(Path f) throws IOException {
    if (!f.toString().endsWith(".json")
        && !f.toString().endsWith(".csv")
        && !f.toString().endsWith(".log")
        && !f.toString().endsWith(".txt")) {
      return Arrays.toString(Files.readAllBytes(f)); // plots: bytes as they are
    }
    return Files.readString(f)
        .lines()
        .filter(l -> !l.contains("\"created\"") && !l.contains("\"wall_seconds\""))
        .collect(Collectors.joining("\n"));
  }
}
