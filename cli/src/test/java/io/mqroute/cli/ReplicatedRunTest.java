package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replicated, swept experiment: every summary output (table, result.json's summary, results.csv)
 * shows the mean over the replications, the per-variant fio text says which replication it is, and
 * a sweep plots one line per variant.
 */
@Tag("integration")
class ReplicatedRunTest {
  /**
   * The experiment both this test and experiment's ReplicatedSweepTest run (one file, two readers).
   */
  static final Path EXPERIMENT_FILE = Path.of("../experiment/src/test/resources/replicated.conf");

  @TempDir static Path tmp;
  static Path conf;
  static Path out;
  static String stdout;
  static int exit;

  @BeforeAll
  static void run() throws IOException {
    conf = Files.copy(EXPERIMENT_FILE, tmp.resolve("replicated.conf"));
    out = tmp.resolve("out");
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    exit =
        Main.execute(
            new String[] {"run", conf.toString(), "--out", out.toString(), "--parallel", "2"},
            new PrintWriter(o, true),
            new PrintWriter(e, true));
    stdout = o.toString();
    assertThat(exit).as(e.toString()).isZero();
  }

  @Test
  void theCsvAndTheSummaryAreTheMeansNotTheFirstReplication() throws IOException {
    JsonNode variants =
        new ObjectMapper().readTree(out.resolve("result.json").toFile()).path("variants");
    List<String> rows = List.of(Files.readString(out.resolve("results.csv")).split("\r\n"));
    List<String> header = List.of(rows.get(0).split(","));
    assertThat(header).contains("fio.iodepth", "replications");
    assertThat(rows).hasSize(1 + variants.size());
    for (int i = 0; i < variants.size(); i++) {
      JsonNode v = variants.get(i);
      String[] row = rows.get(i + 1).split(",", -1);
      assertThat(v.path("summary").path("replications").asInt()).isEqualTo(3);
      assertThat(v.path("summary").path("ci95").path("iops").isNumber()).isTrue();
      BigDecimal mean = v.path("summary").path("iops").decimalValue();
      assertThat(new BigDecimal(row[header.indexOf("iops")])).isEqualByComparingTo(mean);
      assertThat(row[header.indexOf("replications")]).isEqualTo("3");
      assertThat(row[header.indexOf("fio.iodepth")])
          .isEqualTo(v.path("point").path("fio.iodepth").asText());
      // the first replication alone (fio's document) is a different number: the CSV really is the
      // mean
      double first = v.path("fio").path("jobs").get(0).path("read").path("iops").asDouble();
      assertThat(first).as(v.path("id").asText()).isNotEqualTo(mean.doubleValue());
    }
  }

  @Test
  void resultJsonRecordsTheVerdicts() throws IOException {
    JsonNode root = new ObjectMapper().readTree(out.resolve("result.json").toFile());
    assertThat(root.path("expectations_hold").asBoolean()).isTrue();
    JsonNode e = root.path("expectations").get(0);
    assertThat(e.path("expect").asText())
        .isEqualTo("iops(fast, iodepth=4) > iops(slow, iodepth=4)");
    assertThat(e.path("holds").asBoolean()).isTrue();
    assertThat(e.path("left").asDouble()).isGreaterThan(e.path("right").asDouble());
    assertThat(e.path("right").asDouble()).isPositive();
  }

  @Test
  void theFioTextSaysWhichReplicationItShows() {
    assertThat(stdout)
        .contains(
            "=== fast[iodepth=1] {} (replication 1 of 3, seed 7; the table below has the means)");
  }

  @Test
  void aSweepIsPlotted() {
    assertThat(Files.exists(out.resolve("sweep-fio.iodepth-iops.png"))).isTrue();
  }

  @Test
  void aSeedOutOfRangeIsOneLine() {
    StringWriter o = new StringWriter();
    StringWriter e = new StringWriter();
    int code =
        Main.execute(
            new String[] {"run", conf.toString(), "--seed", "-5"},
            new PrintWriter(o, true),
            new PrintWriter(e, true));
    assertThat(code).isEqualTo(Main.BAD_INPUT);
    assertThat(e.toString())
        .isEqualTo(
            "mqroute: --seed must be in 0..2147483647 (like the file's seed), was -5"
                + System.lineSeparator());
  }
}
