package io.mqroute.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * fio's {@code --output-format=json} document for a run, with the key paths and units fio consumers
 * read ({@code jobs[].read.iops}, {@code bw} in KiB/s, {@code runtime} in ms, {@code
 * clat_ns.percentile."99.000000"} in ns, ...). Keys appear in fio's order.
 *
 * <p>Faithful to fio 3.33 except: {@code "fio version"} is {@code mqroute-<version>}; the time
 * fields come from the {@code timestampSec} argument, never the clock; {@code eta}/{@code elapsed}
 * and {@code disk_util} are left out; {@code lat_ns} always carries a {@code percentile} object
 * (fio only with {@code lat_percentiles=1}; the model always has total latencies); fields fio fills
 * from periodic sampling or rusage ({@code bw_min}, {@code iops_mean}, {@code usr_cpu}, {@code
 * ctx}, {@code iodepth_submit}, ...) are present as zeros; when requests failed, {@code total_err},
 * {@code first_error} (as fio with {@code continue_on_error}) and {@code error_counts} ({@code
 * {"22": n}}, an mqroute addition) are added. Floats are written with six decimals like fio's
 * {@code %f}.
 */
public final class FioJsonReport {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
  private static final DateTimeFormatter CTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);
  private static final String[] SUBMIT_LABELS = {"0", "4", "8", "16", "32", "64", ">=64"};

  private FioJsonReport() {}

  /**
   * Builds the document.
   *
   * @param clones the run's job clones in job order ({@code group_reporting} is applied)
   * @param globalOptions the {@code [global]} options as written, or an empty map (then no {@code
   *     "global options"} key, as in fio)
   * @param version mqroute's version, printed as {@code "mqroute-<version>"}
   * @param timestampSec seconds since the epoch to print as {@code timestamp} (and {@code time},
   *     UTC)
   */
  public static ObjectNode build(
      List<JobStats> clones, Map<String, String> globalOptions, String version, long timestampSec) {
    ObjectNode root = NODES.objectNode();
    root.put("fio version", "mqroute-" + version);
    root.put("timestamp", timestampSec);
    root.put("timestamp_ms", timestampSec * 1000);
    root.put("time", CTIME.format(Instant.ofEpochSecond(timestampSec)));
    if (globalOptions != null && !globalOptions.isEmpty()) {
      root.set("global options", options(globalOptions));
    }
    ArrayNode jobs = root.putArray("jobs");
    for (JobStats unit : GroupReporting.units(clones)) {
      jobs.add(job(unit));
    }
    return root;
  }

  /** {@link #build} as pretty-printed text ending in a newline. */
  public static String render(
      List<JobStats> clones, Map<String, String> globalOptions, String version, long timestampSec) {
    try {
      return MAPPER
              .writerWithDefaultPrettyPrinter()
              .writeValueAsString(build(clones, globalOptions, version, timestampSec))
          + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode job(JobStats s) {
    JobInfo info = s.info();
    ObjectNode job = NODES.objectNode();
    job.put("jobname", info.name());
    job.put("groupid", info.groupId());
    job.put("error", s.firstError());
    if (!info.options().isEmpty()) {
      job.set("job options", options(info.options()));
    }
    for (Direction d : Direction.values()) {
      job.set(d.fioName(), direction(s, d));
    }
    ObjectNode sync = job.putObject("sync");
    sync.put("total_ios", s.sync().count());
    sync.set("lat_ns", latency(s.sync(), info.percentiles(), true));
    job.put("job_runtime", s.jobRuntimeMs());
    job.set("usr_cpu", f6(0.0));
    job.set("sys_cpu", f6(0.0));
    job.put("ctx", 0);
    job.put("majf", 0);
    job.put("minf", 0);
    job.set("iodepth_level", percentages(DepthBuckets.LABELS, s.depthPercentages(), 0));
    job.set("iodepth_submit", percentages(SUBMIT_LABELS, new double[SUBMIT_LABELS.length], 0));
    job.set("iodepth_complete", percentages(SUBMIT_LABELS, new double[SUBMIT_LABELS.length], 0));
    long[] buckets = s.latencyBucketCounts();
    long total = s.totalIos();
    job.set(
        "latency_ns",
        percentages(
            LatencyBuckets.NS_US_LABELS, LatencyBuckets.percentages(buckets, 0, 10, total), 0));
    job.set(
        "latency_us",
        percentages(
            LatencyBuckets.NS_US_LABELS,
            LatencyBuckets.percentages(buckets, LatencyBuckets.US_OFFSET, 10, total),
            0));
    job.set(
        "latency_ms",
        percentages(
            LatencyBuckets.MS_LABELS,
            LatencyBuckets.percentages(buckets, LatencyBuckets.MS_OFFSET, 12, total),
            0));
    if (s.totalErrors() > 0) {
      job.put("total_err", s.totalErrors());
      job.put("first_error", s.firstError());
      ObjectNode counts = job.putObject("error_counts");
      s.errorCounts().forEach((errno, n) -> counts.put(Integer.toString(errno), n));
    }
    job.put("latency_depth", info.iodepth());
    job.put("latency_target", 0);
    job.set("latency_percentile", f6(100.0));
    job.put("latency_window", 0);
    if (!info.description().isEmpty()) {
      job.put("desc", info.description());
    }
    return job;
  }

  private static ObjectNode direction(JobStats s, Direction d) {
    DirectionStats ds = s.direction(d);
    PercentileList list = s.info().percentiles();
    ObjectNode o = NODES.objectNode();
    o.put("io_bytes", ds.ioBytes());
    o.put("io_kbytes", ds.ioBytes() >> 10);
    o.put("bw_bytes", s.bwBytes(d));
    o.put("bw", s.bwKiB(d));
    o.set("iops", f6(s.iops(d)));
    o.put("runtime", s.runtimeMs(d));
    o.put("total_ios", ds.totalIos());
    o.put("short_ios", ds.shortIos());
    o.put("drop_ios", ds.dropIos());
    o.set("slat_ns", latency(ds.slat(), list, false));
    o.set("clat_ns", latency(ds.clat(), list, true));
    o.set("lat_ns", latency(ds.lat(), list, true));
    o.put("bw_min", 0);
    o.put("bw_max", 0);
    o.set("bw_agg", f6(0.0));
    o.set("bw_mean", f6(0.0));
    o.set("bw_dev", f6(0.0));
    o.put("bw_samples", 0);
    o.put("iops_min", 0);
    o.put("iops_max", 0);
    o.set("iops_mean", f6(0.0));
    o.set("iops_stddev", f6(0.0));
    o.put("iops_samples", 0);
    return o;
  }

  private static ObjectNode latency(
      LatencyStat stat, PercentileList list, boolean withPercentiles) {
    ObjectNode o = NODES.objectNode();
    o.put("min", stat.min());
    o.put("max", stat.max());
    o.set("mean", f6(stat.mean()));
    o.set("stddev", f6(stat.stddev()));
    o.put("N", stat.count());
    if (withPercentiles && stat.count() > 0) {
      ObjectNode p = o.putObject("percentile");
      for (int i = 0; i < list.size(); i++) {
        p.put(list.jsonKey(i), stat.valueAtPercentile(list.values().get(i)));
      }
    }
    return o;
  }

  private static ObjectNode options(Map<String, String> options) {
    ObjectNode o = NODES.objectNode();
    options.forEach(o::put);
    return o;
  }

  private static ObjectNode percentages(String[] labels, double[] values, int from) {
    ObjectNode o = NODES.objectNode();
    for (int i = 0; i < labels.length; i++) {
      o.set(labels[i], f6(values[from + i]));
    }
    return o;
  }

  /** A float as fio's {@code %f} writes it: six decimals, kept exactly in the JSON text. */
  private static DecimalNode f6(double value) {
    return DecimalNode.valueOf(new BigDecimal(FioNumbers.fixed(value, 6)));
  }
}
