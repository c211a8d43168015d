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
import org.HdrHistogram.HistogramIterationValue;

/**
 * fio's {@code --output-format=json} document for a run, with the key paths and units fio consumers
 * read ({@code jobs[].read.iops}, {@code bw} in KiB/s, {@code runtime} in ms, {@code
 * clat_ns.percentile."99.000000"} in ns, ...). Keys appear in fio's order.
 *
 * <p>Faithful to fio 3.33 (compared field by field with fio 3.33's own output in the tests) except:
 * {@code "fio version"} is {@link #FIO_VERSION} followed by {@code -mqroute-<version>}, the shape
 * of a fio development build ({@code fio-3.33-12-gabcdef}), so parsers that read {@code fio-N.N}
 * accept it and it still says what wrote it; the time fields come from the {@code timestampSec}
 * argument, never the clock; {@code eta} is 0 and {@code elapsed} is the run's simulated seconds;
 * {@code bw_*} and {@code iops_*} come from samples every {@code bwavgtime} / {@code iopsavgtime}
 * of simulated time; {@code disk_util} describes the modelled device when the caller gives it;
 * percentiles follow {@code clat_percentiles}, {@code lat_percentiles} and {@code slat_percentiles}
 * as in fio, and json+ adds fio's {@code bins}: the latency histogram as value (ns) to count, from
 * mqroute's HdrHistogram (3 significant digits; fio's own bins are coarser). Bare flags ({@code
 * time_based}) are left out of the options, as fio 3.33 leaves them out. Rusage fields ({@code
 * usr_cpu}, {@code ctx}, {@code iodepth_submit}, ...) are zeros unless the caller fills in CPU
 * usage; when requests failed, {@code total_err}, {@code first_error} (as fio with {@code
 * continue_on_error}) and {@code error_counts} ({@code {"22": n}}, an mqroute addition) are added.
 * Floats are written with six decimals like fio's {@code %f}.
 */
public final class FioJsonReport {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();
  private static final DateTimeFormatter CTIME =
      DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy", Locale.US).withZone(ZoneOffset.UTC);
  private static final String[] SUBMIT_LABELS = {"0", "4", "8", "16", "32", "64", ">=64"};

  /** The fio release whose JSON layout this report follows. */
  public static final String FIO_VERSION = "fio-3.33";

  /**
   * What the run adds beyond the jobs' statistics.
   *
   * @param elapsedSec fio's {@code elapsed}: the run's length in whole seconds, rounded up
   * @param plus json+ ({@code --output-format=json+}): latency {@code bins}
   * @param diskUtil fio's {@code disk_util} entries (empty: none)
   * @param cpu per clone index (as in the clone list), {@code {usr %, sys %, ctx}}; null: zeros
   */
  public record Run(long elapsedSec, boolean plus, List<ObjectNode> diskUtil, List<double[]> cpu) {
    public static final Run NONE = new Run(0, false, List.of(), null);
  }

  private FioJsonReport() {}

  /** One {@code disk_util} entry as fio writes it (diskstats over the run). */
  public static ObjectNode diskUtil(
      String name,
      long readIos,
      long writeIos,
      long readTicksMs,
      long writeTicksMs,
      long inQueueMs,
      double utilPercent) {
    ObjectNode o = NODES.objectNode();
    o.put("name", name);
    o.put("read_ios", readIos);
    o.put("write_ios", writeIos);
    o.put("read_merges", 0);
    o.put("write_merges", 0);
    o.put("read_ticks", readTicksMs);
    o.put("write_ticks", writeTicksMs);
    o.put("in_queue", inQueueMs);
    o.set("util", f6(utilPercent));
    return o;
  }

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
    return build(clones, globalOptions, version, timestampSec, Run.NONE);
  }

  /** {@link #build} with what the run adds: elapsed time, json+ bins, disk_util, CPU usage. */
  public static ObjectNode build(
      List<JobStats> clones,
      Map<String, String> globalOptions,
      String version,
      long timestampSec,
      Run run) {
    ObjectNode root = NODES.objectNode();
    root.put("fio version", FIO_VERSION + "-mqroute-" + version);
    root.put("timestamp", timestampSec);
    root.put("timestamp_ms", timestampSec * 1000);
    root.put("time", CTIME.format(Instant.ofEpochSecond(timestampSec)));
    if (globalOptions != null && globalOptions.values().stream().anyMatch(v -> !v.isEmpty())) {
      root.set("global options", options(globalOptions));
    }
    ArrayNode jobs = root.putArray("jobs");
    List<JobStats> units = GroupReporting.units(clones);
    Map<Integer, GroupRunStats> groups = GroupRunStats.of(units);
    for (JobStats unit : units) {
      jobs.add(job(unit, run, groups.get(unit.info().groupId()), cpuOf(unit, clones, run.cpu())));
    }
    if (!run.diskUtil().isEmpty()) {
      ArrayNode disks = root.putArray("disk_util");
      run.diskUtil().forEach(disks::add);
    }
    return root;
  }

  /** A report unit's CPU usage from per-clone {@code {usr, sys, ctx}}: the mean share, or null. */
  static double[] cpuOf(JobStats unit, List<JobStats> clones, List<double[]> cpu) {
    if (cpu == null) {
      return null;
    }
    double[] sum = new double[3];
    int n = 0;
    for (int i = 0; i < clones.size() && i < cpu.size(); i++) {
      JobStats c = clones.get(i);
      boolean member =
          unit.members() == 1
              ? c == unit || c.info().pid() == unit.info().pid()
              : c.info().groupId() == unit.info().groupId();
      if (member && cpu.get(i) != null) {
        for (int k = 0; k < 3; k++) {
          sum[k] += cpu.get(i)[k];
        }
        n++;
      }
    }
    if (n == 0) {
      return null;
    }
    sum[0] /= n; // fio's group usr/sys: the members' mean share
    sum[1] /= n;
    return sum;
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
    return job(s, Run.NONE, null, null);
  }

  static ObjectNode job(JobStats s, Run run, GroupRunStats group, double[] cpu) {
    JobInfo info = s.info();
    ObjectNode job = NODES.objectNode();
    job.put("jobname", info.name());
    job.put("groupid", info.groupId());
    job.put("error", s.firstError());
    if (run != Run.NONE) {
      job.put("eta", 0);
      job.put("elapsed", run.elapsedSec());
    }
    if (info.options().values().stream().anyMatch(v -> !v.isEmpty())) {
      job.set("job options", options(info.options()));
    }
    for (Direction d : Direction.values()) {
      job.set(d.fioName(), direction(s, d, run.plus(), group));
    }
    ObjectNode sync = job.putObject("sync");
    sync.put("total_ios", s.sync().count());
    ReportOptions r = info.report();
    sync.set(
        "lat_ns",
        latency(
            s.sync(), info.percentiles(), r.latPercentiles() || r.clatPercentiles(), run.plus()));
    job.put("job_runtime", s.jobRuntimeMs());
    job.set("usr_cpu", f6(cpu == null ? 0.0 : cpu[0]));
    job.set("sys_cpu", f6(cpu == null ? 0.0 : cpu[1]));
    job.put("ctx", cpu == null ? 0 : (long) cpu[2]);
    job.put("majf", 0);
    job.put("minf", 0);
    job.set("iodepth_level", percentages(DepthBuckets.LABELS, s.depthPercentages()));
    // the model submits and reaps one I/O at a time: fio's "4" bucket (1-4 per call) holds all
    double[] batches = new double[SUBMIT_LABELS.length];
    if (s.totalIos() > 0) {
      batches[1] = 100.0;
    }
    job.set("iodepth_submit", percentages(SUBMIT_LABELS, batches));
    job.set("iodepth_complete", percentages(SUBMIT_LABELS, batches));
    long[] buckets = s.latencyBucketCounts();
    long total = s.totalIos();
    job.set(
        "latency_ns",
        percentages(
            LatencyBuckets.NS_US_LABELS, LatencyBuckets.percentages(buckets, 0, 10, total)));
    job.set(
        "latency_us",
        percentages(
            LatencyBuckets.NS_US_LABELS,
            LatencyBuckets.percentages(buckets, LatencyBuckets.US_OFFSET, 10, total)));
    job.set(
        "latency_ms",
        percentages(
            LatencyBuckets.MS_LABELS,
            LatencyBuckets.percentages(buckets, LatencyBuckets.MS_OFFSET, 12, total)));
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

  private static ObjectNode direction(JobStats s, Direction d, boolean plus, GroupRunStats group) {
    DirectionStats ds = s.direction(d);
    PercentileList list = s.info().percentiles();
    ReportOptions r = s.info().report();
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
    o.set("slat_ns", latency(ds.slat(), list, r.slatPercentiles(), plus));
    o.set("clat_ns", latency(ds.clat(), list, r.clatPercentiles(), plus));
    o.set("lat_ns", latency(ds.lat(), list, r.latPercentiles(), plus));
    double[] bw = s.bwSamples(d);
    o.put("bw_min", (long) bw[0]);
    o.put("bw_max", (long) bw[1]);
    o.set("bw_agg", f6(bw[4] > 0 ? GroupRunStats.aggPercent(group, d, bw[2]) : 0));
    o.set("bw_mean", f6(bw[2]));
    o.set("bw_dev", f6(bw[3]));
    o.put("bw_samples", (long) bw[4]);
    double[] iops = s.iopsSamples(d);
    o.put("iops_min", (long) iops[0]);
    o.put("iops_max", (long) iops[1]);
    o.set("iops_mean", f6(iops[2]));
    o.set("iops_stddev", f6(iops[3]));
    o.put("iops_samples", (long) iops[4]);
    return o;
  }

  private static ObjectNode latency(
      LatencyStat stat, PercentileList list, boolean withPercentiles, boolean plus) {
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
      if (plus) {
        ObjectNode bins = o.putObject("bins");
        for (HistogramIterationValue v : stat.histogramCopy().recordedValues()) {
          bins.put(Long.toString(v.getValueIteratedTo()), v.getCountAtValueIteratedTo());
        }
      }
    }
    return o;
  }

  /** fio 3.33 leaves a bare flag (no value) out of its options. */
  private static ObjectNode options(Map<String, String> options) {
    ObjectNode o = NODES.objectNode();
    options.forEach(
        (k, v) -> {
          if (!v.isEmpty()) {
            o.put(k, v);
          }
        });
    return o;
  }

  private static ObjectNode percentages(String[] labels, double[] values) {
    ObjectNode o = NODES.objectNode();
    for (int i = 0; i < labels.length; i++) {
      o.set(labels[i], f6(values[i]));
    }
    return o;
  }

  /** A float as fio's {@code %f} writes it: six decimals, kept exactly in the JSON text. */
  private static DecimalNode f6(double value) {
    return DecimalNode.valueOf(new BigDecimal(FioNumbers.fixed(value, 6)));
  }
}
