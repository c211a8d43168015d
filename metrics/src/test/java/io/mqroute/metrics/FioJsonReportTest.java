package io.mqroute.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class FioJsonReportTest {

  private static final long MS = 1_000_000L;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** 10000 reads of 4 KiB, clat 1..10000 us uniformly, slat 500 ns, in a 2000 ms window. */
  static JobStats uniformJob(JobInfo info) {
    JobStats s = new JobStats(info);
    s.openWindow(0);
    for (int i = 1; i <= 10_000; i++) {
      s.record(Direction.READ, 4096, 500, i * 1_000L, JobStats.OK);
    }
    s.closeWindow(2_000 * MS);
    return s;
  }

  static JsonNode parse(List<JobStats> jobs, Map<String, String> globals) throws IOException {
    return JSON.readTree(FioJsonReport.render(jobs, globals, "0.1.0", 1_796_011_089L));
  }

  static List<String> keys(JsonNode node) {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  @Test
  void keyPathsAndUnitsAreFios() throws IOException {
    Map<String, String> opts = new LinkedHashMap<>();
    opts.put("rw", "randread");
    opts.put("iodepth", "8");
    JobInfo info =
        new JobInfo("u", 0, 1, "", opts, PercentileList.FIO_DEFAULT, 8, false, 1024, null);
    JsonNode root = parse(List.of(uniformJob(info)), Map.of("ioengine", "io_uring"));

    assertThat(root.path("fio version").asText())
        .isEqualTo("fio-3.33-mqroute-0.1.0"); // a fio development build's shape
    assertThat(root.path("timestamp").asLong()).isEqualTo(1_796_011_089L);
    assertThat(root.path("timestamp_ms").asLong()).isEqualTo(1_796_011_089_000L);
    assertThat(root.path("time").asText())
        .isEqualTo("Mon Nov 30 03:58:09 2026"); // as in fio's sample
    assertThat(root.path("global options").path("ioengine").asText()).isEqualTo("io_uring");

    JsonNode job = root.path("jobs").get(0);
    assertThat(job.path("jobname").asText()).isEqualTo("u");
    assertThat(job.path("groupid").asInt()).isZero();
    assertThat(job.path("job options").path("iodepth").isTextual()).isTrue();
    assertThat(job.path("job options").path("iodepth").asText()).isEqualTo("8");

    JsonNode read = job.path("read");
    assertThat(read.path("io_bytes").asLong()).isEqualTo(40_960_000L);
    assertThat(read.path("io_kbytes").asLong()).isEqualTo(40_000L);
    assertThat(read.path("runtime").asLong()).as("ms").isEqualTo(2000);
    assertThat(read.path("iops").asDouble()).isEqualTo(5000.0);
    assertThat(read.path("bw_bytes").asLong()).as("B/s").isEqualTo(20_480_000L);
    assertThat(read.path("bw").asLong()).as("KiB/s").isEqualTo(20_000L);
    assertThat(read.path("total_ios").asLong()).isEqualTo(10_000);
    assertThat(read.at("/clat_ns/N").asLong()).isEqualTo(10_000);
    assertThat(read.at("/clat_ns/min").asLong()).isEqualTo(1_000);
    assertThat(read.at("/clat_ns/max").asLong()).isEqualTo(10_000_000);
    assertThat(read.at("/clat_ns/mean").asDouble()).isEqualTo(5_000_500.0);
    assertThat(read.at("/slat_ns/mean").asDouble()).isEqualTo(500.0);
    assertThat(read.at("/lat_ns/max").asLong()).isEqualTo(10_000_500);

    JsonNode pct = read.at("/clat_ns/percentile");
    assertThat(keys(pct))
        .containsExactly(
            "1.000000",
            "5.000000",
            "10.000000",
            "20.000000",
            "30.000000",
            "40.000000",
            "50.000000",
            "60.000000",
            "70.000000",
            "80.000000",
            "90.000000",
            "95.000000",
            "99.000000",
            "99.500000",
            "99.900000",
            "99.950000",
            "99.990000");
    assertThat((double) pct.path("50.000000").asLong())
        .isCloseTo(5_000_000, Offset.offset(5_000.0));
    assertThat((double) pct.path("99.000000").asLong())
        .isCloseTo(9_900_000, Offset.offset(9_900.0));
    assertThat((double) pct.path("99.900000").asLong())
        .isCloseTo(9_990_000, Offset.offset(9_990.0));
    // as fio: lat_ns gets percentiles only with lat_percentiles=1 (off by default)
    assertThat(read.at("/lat_ns/percentile").isMissingNode()).isTrue();
    assertThat(read.at("/slat_ns/percentile").isMissingNode()).isTrue();

    assertThat(job.at("/write/runtime").asLong()).isZero();
    assertThat(job.at("/write/clat_ns/percentile").isMissingNode())
        .as("no samples, no percentiles")
        .isTrue();
    // fio's buckets name their exclusive upper bound: "1000" us holds 750..999 us, "10" ms 4..9 ms
    assertThat(job.at("/latency_us/1000").asDouble()).isEqualTo(2.5);
    assertThat(job.at("/latency_ms/2").asDouble()).isEqualTo(10.0);
    assertThat(job.at("/latency_ms/10").asDouble()).isEqualTo(60.0);
    assertThat(job.at("/latency_ms/20").asDouble()).as("the single 10 ms sample").isEqualTo(0.01);
    assertThat(job.at("/iodepth_level/8").asDouble()).isEqualTo(100.0);
    assertThat(job.path("latency_depth").asInt()).isEqualTo(8);
    assertThat(job.path("job_runtime").asLong()).isEqualTo(2000);
  }

  /**
   * Our keys appear in the same order as in a real fio 3.33 document (fio-sample-json-full.json).
   */
  @Test
  void keyOrderFollowsRealFioOutput() throws IOException {
    JsonNode fio;
    try (var in = getClass().getResourceAsStream("/fio/fio-sample-json-full.json")) {
      fio = JSON.readTree(in);
    }
    JsonNode ours = parse(List.of(uniformJob(JobInfo.named("t"))), Map.of());
    assertThat(keys(ours))
        .isEqualTo(List.of("fio version", "timestamp", "timestamp_ms", "time", "jobs"));
    assertThat(keys(fio)).containsSubsequence(keys(ours));

    JsonNode fioJob = fio.path("jobs").get(0);
    JsonNode ourJob = ours.path("jobs").get(0);
    List<String> fioJobKeys = keys(fioJob);
    fioJobKeys.removeAll(List.of("eta", "elapsed", "job options"));
    assertThat(keys(ourJob)).isEqualTo(fioJobKeys);
    for (String dir : List.of("read", "write", "trim")) {
      assertThat(keys(ourJob.path(dir))).as(dir).isEqualTo(keys(fioJob.path(dir)));
      assertThat(keys(ourJob.path(dir).path("slat_ns")))
          .isEqualTo(keys(fioJob.path(dir).path("slat_ns")));
    }
    assertThat(keys(ourJob.at("/read/clat_ns"))).isEqualTo(keys(fioJob.at("/read/clat_ns")));
    assertThat(keys(ourJob.at("/read/clat_ns/percentile")))
        .isEqualTo(keys(fioJob.at("/read/clat_ns/percentile")));
    for (String obj :
        List.of(
            "sync",
            "iodepth_level",
            "iodepth_submit",
            "iodepth_complete",
            "latency_ns",
            "latency_us",
            "latency_ms")) {
      assertThat(keys(ourJob.path(obj))).as(obj).isEqualTo(keys(fioJob.path(obj)));
    }
  }

  @Test
  void floatsAreWrittenWithSixDecimalsLikeFio() {
    String text = FioJsonReport.render(List.of(uniformJob(JobInfo.named("t"))), Map.of(), "x", 0);
    assertThat(text)
        .contains(
            "\"iops\" : 5000.000000,",
            "\"mean\" : 500.000000,",
            "\"1\" : 100.000000,",
            "\"usr_cpu\" : 0.000000,",
            "\"time\" : \"Thu Jan  1 00:00:00 1970\"");
    assertThat(text).endsWith("}\n");
  }

  @Test
  void groupReportingMergesClonesIntoOneEntry() throws IOException {
    JobInfo gr = JobInfo.named("g").withGroupReporting(true);
    List<JobStats> clones = List.of(uniformJob(gr), uniformJob(gr.withGroup(0, 2)));
    JsonNode merged = parse(clones, Map.of()).path("jobs");
    assertThat(merged.size()).isEqualTo(1);
    assertThat(merged.at("/0/read/total_ios").asLong()).isEqualTo(20_000);
    assertThat(merged.at("/0/read/iops").asDouble()).isEqualTo(10_000.0);
    assertThat(merged.at("/0/job_runtime").asLong()).isEqualTo(4000);

    JobInfo plain = JobInfo.named("g");
    JsonNode separate =
        parse(List.of(uniformJob(plain), uniformJob(plain.withGroup(0, 2))), Map.of()).path("jobs");
    assertThat(separate.size()).isEqualTo(2);
    assertThat(separate.at("/0/jobname").asText()).isEqualTo(separate.at("/1/jobname").asText());
  }

  @Test
  void errorsAndDescriptionAppearWhenPresent() throws IOException {
    JobInfo info =
        new JobInfo(
            "e", 1, 1, "hello", Map.of(), PercentileList.of(50, 99.9), 1, false, 1024, null);
    JobStats s = new JobStats(info);
    s.openWindow(0);
    s.record(Direction.WRITE, 4096, JobStats.NO_SLAT, 10_000, -107);
    s.record(Direction.WRITE, 4096, JobStats.NO_SLAT, 10_000, JobStats.OK);
    s.recordSync(50_000, JobStats.OK);
    s.closeWindow(MS);
    JsonNode job = parse(List.of(s), Map.of()).path("jobs").get(0);
    assertThat(job.path("error").asInt()).isEqualTo(107);
    assertThat(job.path("total_err").asLong()).isEqualTo(1);
    assertThat(job.path("first_error").asInt()).isEqualTo(107);
    assertThat(job.at("/error_counts/107").asLong()).isEqualTo(1);
    assertThat(job.path("desc").asText()).isEqualTo("hello");
    assertThat(keys(job.at("/write/clat_ns/percentile"))).containsExactly("50.000000", "99.900000");
    assertThat(job.at("/sync/total_ios").asLong()).isEqualTo(1);
    assertThat(job.at("/sync/lat_ns/max").asLong()).isEqualTo(50_000);
    assertThat(job.path("job options").isMissingNode()).isTrue();
  }

  @Test
  void outputIsDeterministic() {
    String a =
        FioJsonReport.render(List.of(uniformJob(JobInfo.named("d"))), Map.of("bs", "4k"), "1", 5);
    String b =
        FioJsonReport.render(List.of(uniformJob(JobInfo.named("d"))), Map.of("bs", "4k"), "1", 5);
    assertThat(a).isEqualTo(b);
  }
}
