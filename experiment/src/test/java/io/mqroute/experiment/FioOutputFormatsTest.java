package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mqroute.metrics.JobStats;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mqroute's fio outputs beside fio 3.33's own for the same job shape (fio-3.33/job.fio; the
 * reference files are what Debian's fio 3.33 wrote, see fio-3.33/generate.sh): every key path of
 * fio's JSON is in mqroute's and no other, json+ has bins, terse has fio's field count, the logs
 * have fio's line format.
 */
class FioOutputFormatsTest {

  @TempDir static Path dir;
  private static VariantResult run;

  @BeforeAll
  static void runTheJob() throws IOException {
    String job = resource("job.fio").replace("runtime=2", "runtime=600ms");
    run =
        ExperimentText.run(
                dir,
                "formats",
                "name = formats\ndevice = \"fixed(20us)\"\nworkload = \"\"\"\n" + job + "\"\"\"\n")
            .variants()
            .get(0);
  }

  private static String resource(String name) throws IOException {
    try (InputStream in = FioOutputFormatsTest.class.getResourceAsStream("/fio-3.33/" + name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** Key paths; the keys under percentile, bins and the options are values, not structure. */
  private static Set<String> paths(JsonNode n, String at, Set<String> out) {
    if (n.isObject()) {
      if (at.endsWith("/percentile") || at.endsWith("/bins") || at.endsWith("options")) {
        out.add(at + "/*");
        return out;
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        paths(e.getValue(), at + "/" + e.getKey(), out);
      }
    } else if (n.isArray()) {
      if (!n.isEmpty()) {
        paths(n.get(0), at + "[]", out);
      }
    } else {
      out.add(at + (n.isNumber() ? ":number" : ":" + n.getNodeType()));
    }
    return out;
  }

  @Test
  void jsonHasFiosKeyPathsAndNoOthers() throws IOException {
    ObjectMapper m = new ObjectMapper();
    JsonNode fio = m.readTree(resource("fio-3.33.json.out"));
    JsonNode ours = FioOutput.json(run, "test", false);
    assertThat(paths(ours, "", new TreeSet<>())).isEqualTo(paths(fio, "", new TreeSet<>()));
    assertThat(ours.path("fio version").asText()).matches("fio-3\\.33-mqroute-test");
    JsonNode read = ours.at("/jobs/0/read");
    assertThat(read.path("bw_samples").asLong()).isEqualTo(2); // 600 ms / bwavgtime=250
    assertThat(read.path("iops_mean").asDouble()).isPositive();
    assertThat(read.path("bw_min").asLong()).isPositive();
    assertThat(ours.at("/jobs/0/elapsed").asLong()).isEqualTo(1);
    assertThat(ours.at("/disk_util/0/read_ios").asLong())
        .isEqualTo(read.path("total_ios").asLong());
    assertThat(ours.at("/disk_util/0/util").asDouble()).isBetween(99.0, 100.0); // psync: busy
    assertThat(ours.at("/jobs/0/sys_cpu").asDouble()).isPositive();
  }

  @Test
  void jsonPlusBinsCountEveryLatency() {
    JsonNode clat = FioOutput.json(run, "test", true).at("/jobs/0/read/clat_ns");
    long sum = 0;
    for (Iterator<JsonNode> it = clat.path("bins").elements(); it.hasNext(); ) {
      sum += it.next().asLong();
    }
    assertThat(sum).isEqualTo(clat.path("N").asLong()).isPositive();
    assertThat(FioOutput.json(run, "test", false).at("/jobs/0/read/clat_ns/bins").isMissingNode())
        .isTrue();
  }

  @Test
  void terseHasFiosFields() throws IOException {
    String fio = resource("fio-3.33.terse.out").strip();
    String ours = FioOutput.terse(run, "test").strip();
    assertThat(ours.split(";", -1)).hasSameSizeAs(fio.split(";", -1));
    assertThat(ours).startsWith("3;fio-3.33-mqroute-test;job;0;0;");
    assertThat(ours).contains(";mqroute-dev;");
  }

  /** The kinds of line fio 3.33's normal output has (by their label), ours has too. */
  @Test
  void normalOutputHasFiosLines() throws IOException {
    String ours = FioOutput.text(run, "virtual t=0.600s");
    for (String label :
        new String[] {
          "job: (g=0): rw=randrw, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B,"
              + " ioengine=psync, iodepth=1\n",
          "Starting 1 process\n",
          "  read: IOPS=",
          "    clat percentiles (",
          "   bw (  KiB/s): min=",
          "   iops        : min=",
          "  write: IOPS=",
          "  cpu          : usr=",
          "     submit    : 0=0.0%, 4=100.0%",
          "     complete  : 0=0.0%, 4=100.0%",
          "     issued rwts: total=",
          "Run status group 0 (all jobs):\n",
          "Disk stats (read/write):\n"
        }) {
      assertThat(resource("fio-3.33.normal.out"))
          .as("fio's")
          .contains(label.replace("ioengine=psync, iodepth=1\n", ""));
      assertThat(ours).as(label).contains(label);
    }
    assertThat(ours).contains("  mqroute-dev: ios=");
    // fio's order: the cpu line between the latency buckets and the depths
    assertThat(ours.indexOf("  cpu          :")).isLessThan(ours.indexOf("  IO depths    :"));
  }

  @Test
  void logsAreInFiosFormat() throws IOException {
    String line = "\\d+, \\d+, [01], \\d+, 0";
    for (String log : new String[] {"job_bw.1.log", "job_iops.1.log", "job_lat.1.log"}) {
      assertThat(resource(log).strip().split("\n")).allMatch(l -> l.matches(line));
    }
    JobStats job = run.result().jobs().get(0);
    Map<String, String> logs = job.logFiles();
    assertThat(logs.keySet())
        .containsExactly("job_lat.1.log", "job_clat.1.log", "job_bw.1.log", "job_iops.1.log");
    for (String text : logs.values()) {
      assertThat(text.strip().split("\n")).isNotEmpty().allMatch(l -> l.matches(line));
    }
    // log_avg_msec=200: latencies averaged per 200 ms; bandwidth at each bwavgtime=250 sample
    assertThat(logs.get("job_lat.1.log")).startsWith("200, ");
    assertThat(logs.get("job_bw.1.log")).startsWith("250, ");
  }
}
