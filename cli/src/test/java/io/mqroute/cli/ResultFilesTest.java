package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.awt.GraphicsEnvironment;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mqroute run FILE --out DIR} end to end: a tiny experiment (1 CPU, one queue, a fixed 10 us
 * device, 5 ms of psync reads) in two variants that differ in ring size, run twice with the same
 * seed.
 */
@Tag("integration")
class ResultFilesTest {
  /** Floats as BigDecimal: exact comparisons of the six-decimal numbers. */
  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

  private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

  static final String EXPERIMENT =
      """
      name = tiny
      seed = 7
      machine { numa-nodes = 1, cores-per-node = 1 }
      queues { kind = independent, count = 1 }
      device = "fixed(10us)"
      router { selector = single }
      workload = \"\"\"
      [reads]
      ioengine=psync
      rw=randread
      size=1m
      bs=4k
      runtime=5ms
      time_based
      \"\"\"
      variants = [
        { name = ring4, queues.ring-size = 4 }
        { name = ring8, queues.ring-size = 8 }
      ]
      """;

  @TempDir static Path tmp;
  static Path first;
  static Path second;
  static Run run1;
  static Run run2;

  record Run(int exit, String out, String err) {}

  static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(exit, out.toString(), err.toString());
  }

  @BeforeAll
  static void runTwice() throws IOException {
    Path conf = Files.writeString(tmp.resolve("tiny.conf"), EXPERIMENT);
    first = tmp.resolve("first");
    second = tmp.resolve("second/nested");
    run1 = run("run", conf.toString(), "--brief", "--out", first.toString());
    run2 = run("run", conf.toString(), "--brief", "--out", second.toString());
  }

  private static JsonNode json(Path file) throws IOException {
    return JSON.readTree(file.toFile());
  }

  @Test
  void theRunSucceedsAndNamesTheDirectoryOnItsLastLine() {
    assertThat(run1.exit()).as(run1.err()).isZero();
    assertThat(run2.exit()).as(run2.err()).isZero();
    assertThat(run1.out().strip().lines().reduce((a, b) -> b)).hasValue("results: " + first);
    // Not on a terminal: the plain progress lines, one per variant.
    assertThat(run1.err())
        .contains("mqroute: variant ring4 done in", "mqroute: variant ring8 done in");
    assertThat(GraphicsEnvironment.isHeadless()).isTrue();
  }

  @Test
  void everyFileIsWritten() throws IOException {
    for (String name :
        List.of(
            "result.json",
            "results.csv",
            "ring4.fio.json",
            "ring8.fio.json",
            "latency-percentiles.png",
            "latency-percentiles.svg",
            "iops.png",
            "iops.svg",
            "latency-p999.png",
            "latency-p999.svg",
            "sweep-queues.ring-size-iops.png",
            "sweep-queues.ring-size-iops.svg",
            "sweep-queues.ring-size-p999.png",
            "sweep-queues.ring-size-p999.svg")) {
      assertThat(first.resolve(name)).as(name).isNotEmptyFile();
    }
    try (var files = Files.list(first)) {
      for (Path f : files.collect(Collectors.toList())) {
        String name = f.getFileName().toString();
        if (name.endsWith(".png")) {
          assertThat(Arrays.copyOf(Files.readAllBytes(f), 8)).as(name).isEqualTo(PNG_MAGIC);
        } else if (name.endsWith(".svg")) {
          assertThat(Files.readString(f)).as(name).contains("<svg");
        }
      }
    }
  }

  @Test
  void aSetValueIsRecordedAtTheTopAndInEveryVariant() throws IOException {
    Path out = tmp.resolve("set");
    Run r =
        run(
            "run",
            tmp.resolve("tiny.conf").toString(),
            "--brief",
            "--quick",
            "--set",
            "fio.iodepth=2",
            "--out",
            out.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode root = json(out.resolve("result.json"));
    assertThat(root.path("quick").asBoolean()).isTrue();
    assertThat(root.path("set").path("fio.iodepth").asText()).isEqualTo("2");
    for (JsonNode v : root.path("variants")) {
      assertThat(v.path("params").path("fio.iodepth").asText()).isEqualTo("2");
    }
    assertThat(Files.readString(out.resolve("results.csv")).lines().findFirst().orElseThrow())
        .contains("fio.iodepth");
    // both variants set their own ring size: a --set of it would change nothing, so it is refused
    Run refused =
        run(
            "run",
            tmp.resolve("tiny.conf").toString(),
            "--set",
            "queues.ring-size=16",
            "--out",
            tmp.resolve("refused").toString());
    assertThat(refused.exit()).isEqualTo(2);
    assertThat(refused.err()).contains("every variant sets its own queues.ring-size");
  }

  @Test
  void resultJsonHasTheContractPaths() throws IOException {
    JsonNode root = json(first.resolve("result.json"));
    assertThat(root.path("name").asText()).isEqualTo("tiny");
    assertThat(root.path("seed").asLong()).isEqualTo(7);
    assertThat(root.path("replications").asInt()).isEqualTo(1);
    assertThat(root.path("quick").isBoolean()).isTrue();
    assertThat(root.path("quick").asBoolean()).isFalse();
    assertThat(root.path("set").isObject()).isTrue();
    assertThat(root.path("set")).isEmpty();
    assertThat(root.path("virtual_time").asBoolean()).isTrue();
    assertThat(root.path("mqroute_version").isTextual()).isTrue();
    assertThat(root.path("result_format").asInt()).isEqualTo(1);
    assertThat(Instant.parse(root.path("created").asText())).isNotNull();
    assertThat(run1.out()).contains("digest: " + root.path("digest").asText());
    assertThat(root.path("variants")).hasSize(2);

    JsonNode v = root.path("variants").get(0);
    assertThat(v.path("name").asText()).isEqualTo("ring4");
    assertThat(v.path("params").path("queues.ring-size").asText()).isEqualTo("4");

    JsonNode read = v.path("fio").path("jobs").get(0).path("read");
    assertThat(read.path("iops").asDouble()).isPositive();
    assertThat(read.path("bw_bytes").asLong()).isPositive();
    assertThat(read.path("clat_ns").path("percentile").path("99.900000").asLong()).isPositive();
    assertThat(read.path("lat_ns").path("mean").asDouble()).isPositive();

    // One job of reads only: the summary is that job's numbers.
    JsonNode summary = v.path("summary");
    assertThat(summary.path("iops").decimalValue()).isEqualTo(read.path("iops").decimalValue());
    assertThat(summary.path("bw_bytes").asLong()).isEqualTo(read.path("bw_bytes").asLong());
    assertThat(summary.path("ios").asLong()).isEqualTo(read.path("total_ios").asLong());
    assertThat(summary.path("errors").asLong()).isZero();
    assertThat(summary.path("lat_ns").path("mean").decimalValue())
        .isEqualTo(read.path("lat_ns").path("mean").decimalValue());
    // fio 3.33 gives lat_ns percentiles only with lat_percentiles=1; the summary always has them
    assertThat(read.path("lat_ns").has("percentile")).isFalse();
    for (String p : List.of("50.000000", "99.000000", "99.900000", "99.990000")) {
      assertThat(summary.path("lat_ns").path("percentile").path(p).asLong()).as(p).isPositive();
    }
    assertThat(summary.has("ci95")).isTrue();
    assertThat(summary.path("ci95").isNull()).isTrue();

    JsonNode m = v.path("mqroute");
    assertThat(m.path("status").asText()).isEqualTo("ok");
    assertThat(m.path("stall").isNull()).isTrue();
    assertThat(m.path("violations")).isEmpty();
    assertThat(m.path("virtual_end_ns").asLong()).isGreaterThanOrEqualTo(5_000_000L);
    assertThat(m.path("digest").asText()).hasSize(16);
    assertThat(m.path("router").path("routed").asLong()).isPositive();
    JsonNode q = m.path("queues").get(0);
    assertThat(q.path("accepted").asLong()).isPositive();
    assertThat(q.path("max_occupancy").asInt()).isBetween(1, 4);
    assertThat(q.path("ring_size").asInt()).isEqualTo(4);
    for (String key : List.of("overflow_waits", "overflow_ns", "delayed_retries", "enomem")) {
      assertThat(q.path(key).isIntegralNumber()).as(key).isTrue();
    }
    JsonNode core = m.path("cores").get(0);
    assertThat(core.path("busy_ns").asLong()).isPositive();
    assertThat(core.path("items").asLong()).isPositive();
    assertThat(core.path("wakeups").isIntegralNumber()).isTrue();
    assertThat(core.path("cstate_exits").isObject()).isTrue();
    assertThat(m.path("little").get(0).path("holds").asBoolean()).isTrue();
    assertThat(m.path("little").get(0).path("replications").asInt()).isEqualTo(1);
    JsonNode queueing = m.path("queueing").get(0);
    assertThat(queueing.path("requests").asLong()).isPositive();
    assertThat(queueing.path("p_wait").asDouble()).isBetween(0.0, 1.0);
    assertThat(queueing.path("busy_fraction").asDouble()).isBetween(0.0, 1.0);
    assertThat(queueing.path("mean_in_queue").asDouble())
        .isGreaterThanOrEqualTo(queueing.path("mean_waiting").asDouble());
    assertThat(queueing.path("ci95").isNull()).as("one replication").isTrue();
    assertThat(m.path("wall_seconds").isNumber()).isTrue();
  }

  @Test
  void eachFioFileIsTheVariantsFioDocument() throws IOException {
    JsonNode variants = json(first.resolve("result.json")).path("variants");
    for (JsonNode v : variants) {
      String name = v.path("name").asText();
      assertThat(json(first.resolve(name + ".fio.json"))).as(name).isEqualTo(v.path("fio"));
    }
  }

  @Test
  void theCsvHasAHeaderAndOneRfc4180RowPerVariant() throws IOException {
    String csv = Files.readString(first.resolve("results.csv"));
    assertThat(csv).endsWith("\r\n");
    List<String> lines = List.of(csv.split("\r\n"));
    assertThat(lines).hasSize(3);
    assertThat(lines.get(0))
        .isEqualTo(
            "variant,queues.ring-size,iops,bw_bytes,lat_mean_ns,lat_p50_ns,"
                + "lat_p99_ns,lat_p99.9_ns,lat_p99.99_ns,errors,replications,status,digest");
    JsonNode v = json(first.resolve("result.json")).path("variants").get(1);
    String[] row = lines.get(2).split(",", -1);
    assertThat(row).hasSize(13);
    assertThat(row[0]).isEqualTo("ring8");
    assertThat(row[1]).isEqualTo("8");
    assertThat(row[2]).matches("\\d+\\.\\d{6}");
    assertThat(new BigDecimal(row[2]))
        .isEqualByComparingTo(v.path("summary").path("iops").decimalValue());
    JsonNode percentiles = v.path("summary").path("lat_ns").path("percentile");
    assertThat(row[7]).isEqualTo(percentiles.path("99.900000").asText());
    assertThat(row[10]).isEqualTo("1");
    assertThat(row[11]).isEqualTo("ok");
    assertThat(row[12]).isEqualTo(v.path("mqroute").path("digest").asText());
  }

  @Test
  void theSameSeedGivesTheSameFilesExceptTheWallClockFields() throws IOException {
    String a = Files.readString(first.resolve("result.json"), StandardCharsets.UTF_8);
    String b = Files.readString(second.resolve("result.json"), StandardCharsets.UTF_8);
    assertThat(withoutWallClock(b)).isEqualTo(withoutWallClock(a));
    assertThat(Files.readString(second.resolve("results.csv")))
        .isEqualTo(Files.readString(first.resolve("results.csv")));
    assertThat(Files.readString(second.resolve("ring4.fio.json")))
        .isEqualTo(Files.readString(first.resolve("ring4.fio.json")));
    // The same, structurally: drop exactly the documented fields and compare the trees.
    assertThat(stripped(json(second.resolve("result.json"))))
        .isEqualTo(stripped(json(first.resolve("result.json"))));
  }

  /** The text without the lines of the two wall-clock fields. */
  private static String withoutWallClock(String json) {
    return json.lines()
        .filter(l -> !l.contains("\"created\"") && !l.contains("\"wall_seconds\""))
        .collect(Collectors.joining("\n"));
  }

  private static JsonNode stripped(JsonNode root) {
    ObjectNode copy = root.deepCopy();
    copy.remove("created");
    copy.path("variants").forEach(v -> ((ObjectNode) v.path("mqroute")).remove("wall_seconds"));
    return copy;
  }

  @Test
  void anUnusableDirectoryIsOneLineAndExit2BeforeTheRun() throws IOException {
    Path conf = tmp.resolve("tiny.conf");
    Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");
    Run r = run("run", conf.toString(), "--out", file.toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().strip())
        .isEqualTo(
            "mqroute: cannot write results to "
                + file
                + ": "
                + file
                + " exists and is not a directory");
    assertThat(r.out()).doesNotContain("variant");
  }
}
