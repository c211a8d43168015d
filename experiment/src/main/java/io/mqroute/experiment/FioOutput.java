package io.mqroute.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.Work;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.FioJsonReport;
import io.mqroute.metrics.FioNumbers;
import io.mqroute.metrics.FioTerseReport;
import io.mqroute.metrics.FioTextReport;
import io.mqroute.metrics.JobStats;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What fio's JSON of a variant adds to the jobs' statistics ({@link FioJsonReport.Run}): the run's
 * {@code elapsed}, {@code disk_util} for the modelled device and CPU usage from the model's cores.
 *
 * <p>{@code disk_util} has one entry, {@code mqroute-dev}: the I/Os the jobs completed, {@code
 * read_ticks} / {@code write_ticks} the summed latencies of each (diskstats' time spent reading /
 * writing), {@code in_queue} their sum, and {@code util} min(100 %, 100 × the mean number of
 * requests outstanding over the run): exact at one outstanding request, an upper bound of the busy
 * share above that (the model does not record the device's own busy time). CPU: each core's work of
 * the application thread (kinds {@code submit}, {@code reap}, {@code wake}: {@code sys_cpu}; {@code
 * think}, the thinktime_spin busy loop: {@code usr_cpu}) is shared by the clones whose thread
 * starts on that core, as a share of the clone's measured runtime.
 */
public final class FioOutput {

  /** The name of the modelled device in {@code disk_util}. */
  public static final String DEVICE_NAME = "mqroute-dev";

  private FioOutput() {}

  /** The additions for one variant's first replication; {@code plus} for json+. */
  public static FioJsonReport.Run run(VariantResult r, boolean plus) {
    MachineResult m = r.result();
    long elapsed = (m.endNanos() + 999_999_999L) / 1_000_000_000L;
    return new FioJsonReport.Run(elapsed, plus, List.of(disk(m)), cpu(r));
  }

  /** fio's JSON document of a variant (json+ with {@code plus}). */
  public static ObjectNode json(VariantResult r, String version, boolean plus) {
    return FioJsonReport.build(
        r.result().jobs(),
        r.variant().workload().globalOptions(),
        version,
        ResultJson.fioTimestamp(r),
        run(r, plus));
  }

  /** fio's terse lines of a variant, with the modelled device's disk fields. */
  public static String terse(VariantResult r, String version) {
    ObjectNode d = disk(r.result());
    String disk =
        String.join(
            ";",
            d.path("name").asText(),
            d.path("read_ios").asText(),
            d.path("write_ios").asText(),
            "0",
            "0",
            d.path("read_ticks").asText(),
            d.path("write_ticks").asText(),
            d.path("in_queue").asText(),
            FioNumbers.fixed(d.path("util").asDouble(), 2) + "%");
    return FioTerseReport.render(r.result().jobs(), version, disk);
  }

  /** {@link #json} as pretty-printed text ending in a newline. */
  public static String render(VariantResult r, String version, boolean plus) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(json(r, version, plus))
          + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  private static ObjectNode disk(MachineResult m) {
    long readIos = 0;
    long writeIos = 0;
    double readTicks = 0;
    double writeTicks = 0;
    for (JobStats s : m.jobs()) {
      readIos += s.direction(Direction.READ).totalIos();
      writeIos += s.direction(Direction.WRITE).totalIos();
      readTicks +=
          s.direction(Direction.READ).lat().mean() * s.direction(Direction.READ).lat().count();
      writeTicks +=
          s.direction(Direction.WRITE).lat().mean() * s.direction(Direction.WRITE).lat().count();
    }
    // requests outstanding over the measured time: the jobs' in-flight time in their windows
    double area = 0;
    long from = Long.MAX_VALUE;
    long to = Long.MIN_VALUE;
    for (int i = 0; i < m.little().size() && i < m.jobs().size(); i++) {
      LittlesLaw l = m.little().get(i);
      if (l.evaluated()) {
        area += l.inFlightArea();
        from = Math.min(from, m.jobs().get(i).windowStartNs());
        to = Math.max(to, m.jobs().get(i).windowEndNs());
      }
    }
    double util = to > from ? Math.min(100.0, 100.0 * area / (to - from)) : 0;
    long rt = Math.round(readTicks / 1e6);
    long wt = Math.round(writeTicks / 1e6);
    return FioJsonReport.diskUtil(DEVICE_NAME, readIos, writeIos, rt, wt, rt + wt, util);
  }

  /** fio's normal output of a variant: start-up lines, jobs with cpu lines, groups, Disk stats. */
  public static String text(VariantResult r, String timeLabel) {
    ObjectNode d = disk(r.result());
    String stats =
        "  "
            + d.path("name").asText()
            + ": ios="
            + d.path("read_ios").asText()
            + "/"
            + d.path("write_ios").asText()
            + ", merge=0/0, ticks="
            + d.path("read_ticks").asText()
            + "/"
            + d.path("write_ticks").asText()
            + ", in_queue="
            + d.path("in_queue").asText()
            + ", util="
            + FioNumbers.fixed(d.path("util").asDouble(), 2)
            + "%\n";
    List<double[]> cpu = cpu(r);
    return FioTextReport.render(r.result().jobs(), timeLabel, cpu == null ? List.of() : cpu, stats);
  }

  /** Per clone {@code {usr %, sys %, ctx}} from the model's cores (see the class comment). */
  public static List<double[]> cpu(VariantResult r) {
    List<JobPlan> plans;
    try {
      plans = r.variant().workload().plans(r.variant().machine());
    } catch (RuntimeException e) {
      return null;
    }
    List<CoreProtocol.CoreStats> cores = r.result().cores();
    int[] homed = new int[cores.size()];
    for (JobPlan p : plans) {
      if (p.startCpu() < homed.length) {
        homed[p.startCpu()]++;
      }
    }
    List<double[]> out = new ArrayList<>();
    List<JobStats> jobs = r.result().jobs();
    for (int i = 0; i < jobs.size() && i < plans.size(); i++) {
      int c = plans.get(i).startCpu();
      long runtime = jobs.get(i).runtimeNs();
      if (c >= cores.size() || runtime <= 0) {
        out.add(null);
        continue;
      }
      long[] byKind = cores.get(c).nanosByKind();
      double sys = kind(byKind, Work.SUBMIT) + kind(byKind, Work.REAP) + kind(byKind, Work.WAKE);
      double usr = kind(byKind, Work.THINK);
      double share = 100.0 / homed[c] / runtime;
      out.add(new double[] {Math.min(100, usr * share), Math.min(100, sys * share), 0});
    }
    return out;
  }

  private static double kind(long[] byKind, Work w) {
    return w.ordinal() < byKind.length ? byKind[w.ordinal()] : 0;
  }
}
