package io.mqroute.metrics;

import static io.mqroute.metrics.FioNumbers.num2str;

import io.mqroute.metrics.FioNumbers.Unit;
import java.util.List;
import java.util.Map;

/**
 * fio's normal text output for a finished run ({@code show_thread_status_normal} per job, then
 * {@code show_group_stats} per group), built from {@link JobStats}.
 *
 * <p>A job block reads like fio 3.33's:
 *
 * <pre>
 * randread-4k: (groupid=0, jobs=2): err= 0: pid=1
 *   read: IOPS=30.5k, BW=119MiB/s (125MB/s)(357MiB/3001msec)
 *     clat (nsec): min=1744, max=6883.3k, avg=64449.55, stdev=120796.64
 *      lat (nsec): min=1773, max=6883.3k, avg=64534.46, stdev=120805.29
 *     clat percentiles (usec):
 *      |  1.00th=[    3],  5.00th=[    3], 10.00th=[    3], 20.00th=[    3],
 *      ...
 *   lat (usec)   : 2=0.28%, 4=41.00%, 10=5.46%, 20=1.14%, 50=6.97%
 *   IO depths    : 1=100.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=0.0%, 32=0.0%, >=64=0.0%
 *      issued rwts: total=91463,0,0,0 short=0,0,0,0 dropped=0,0,0,0
 *      latency   : target=0, window=0, percentile=100.00%, depth=1
 * </pre>
 *
 * followed by {@code Run status group N (all jobs):} blocks.
 *
 * <p>Differences from fio, all deliberate: the output is deterministic, so the header ends after
 * {@code pid=} (the clone index) unless a fixed time label is passed; lines fio fills from things
 * the model does not simulate are left out: the job-start lines before the results, {@code bw
 * (KiB/s)} and {@code iops} sample lines (no periodic sampling), {@code cpu}, {@code submit}/{@code
 * complete} batch lines and {@code Disk stats}. The output starts directly with the first job line
 * (fio prints a blank line first). An {@code errors} line is printed whenever requests failed (fio
 * prints it only with {@code continue_on_error}).
 */
public final class FioTextReport {

  private FioTextReport() {}

  /** The report for a run's job clones (in job order), applying {@code group_reporting}. */
  public static String render(List<JobStats> clones) {
    return render(clones, null);
  }

  /**
   * The report with a fixed time label after each job header (fio prints the wall-clock date
   * there), e.g. {@code "virtual t=3.001s"}; {@code null} for none.
   */
  public static String render(List<JobStats> clones, String timeLabel) {
    return render(clones, timeLabel, null, null);
  }

  /**
   * fio's whole normal output: the job lines and {@code Starting N processes} before the jobs (fio
   * prints them when the run starts), the jobs with their {@code cpu} line ({@code cpu}: per clone
   * {@code {usr %, sys %, ctx}}, or null), the groups, and {@code diskStats} (fio's {@code Disk
   * stats (read/write):} block, or null).
   */
  public static String render(
      List<JobStats> clones, String timeLabel, List<double[]> cpu, String diskStats) {
    List<JobStats> units = GroupReporting.units(clones);
    Map<Integer, GroupRunStats> groups = GroupRunStats.of(units);
    StringBuilder out = new StringBuilder(4096);
    if (cpu != null) {
      header(out, clones);
    }
    for (JobStats unit : units) {
      appendJob(
          out,
          unit,
          groups.get(unit.info().groupId()),
          timeLabel,
          FioJsonReport.cpuOf(unit, clones, cpu),
          cpu != null);
    }
    for (GroupRunStats group : groups.values()) {
      appendGroup(out, group);
    }
    if (diskStats != null) {
      out.append("\nDisk stats (read/write):\n").append(diskStats);
    }
    return out.toString();
  }

  /** fio's start-up lines: one per job (its clones as "..."), the version, Starting N. */
  private static void header(StringBuilder out, List<JobStats> clones) {
    String last = null;
    boolean thread = false;
    for (JobStats c : clones) {
      String name = c.info().name() + "\0" + c.info().groupId();
      if (name.equals(last)) {
        if (!out.toString().endsWith("...\n")) {
          out.append("...\n");
        }
        continue;
      }
      last = name;
      out.append(c.info().name())
          .append(": (g=")
          .append(c.info().groupId())
          .append("): ")
          .append(c.info().report().header())
          .append('\n');
      thread |= c.info().options().containsKey("thread");
    }
    out.append(FioJsonReport.FIO_VERSION)
        .append("-mqroute\nStarting ")
        .append(clones.size())
        .append(thread ? " thread" : " process")
        .append(clones.size() == 1 ? "" : thread ? "s" : "es")
        .append("\n\n");
  }

  static void appendJob(StringBuilder out, JobStats s, GroupRunStats group, String timeLabel) {
    appendJob(out, s, group, timeLabel, null, false);
  }

  /** A job; with {@code cpuLine} fio's {@code cpu :} line ({@code cpu}: usr %, sys %, ctx). */
  static void appendJob(
      StringBuilder out,
      JobStats s,
      GroupRunStats group,
      String timeLabel,
      double[] cpu,
      boolean cpuLine) {
    if (s.totalIos() == 0 && s.totalErrors() == 0 && s.sync().count() == 0) {
      return; // fio prints nothing for a job that did no I/O
    }
    JobInfo info = s.info();
    out.append(info.name())
        .append(": (groupid=")
        .append(info.groupId())
        .append(", jobs=")
        .append(s.members())
        .append("): err=")
        .append(FioNumbers.padLeft(s.firstError(), 2));
    if (s.firstError() != 0) {
      out.append(" (error=").append(Errno.describe(s.firstError())).append(')');
    }
    out.append(": pid=").append(info.pid());
    if (timeLabel != null) {
      out.append(": ").append(timeLabel);
    }
    out.append('\n');
    if (!info.description().isEmpty()) {
      out.append("  Description  : [").append(info.description()).append("]\n");
    }
    boolean iec = group == null || group.kbBase == 1024;
    for (Direction d : Direction.values()) {
      if (s.direction(d).totalIos() > 0) {
        appendDirection(out, s, d, iec, group);
      }
    }
    FioTextBlocks.latencyBuckets(out, s.latencyBucketCounts(), s.totalIos());
    if (s.sync().count() > 0) {
      out.append("  fsync/fdatasync/sync_file_range:\n");
      FioTextBlocks.displayLat(out, "sync", s.sync());
      FioTextBlocks.percentileGrid(out, "sync", s.sync(), info.percentiles());
    }
    if (cpuLine) {
      out.append("  cpu          : usr=")
          .append(FioNumbers.fixed(cpu == null ? 0 : cpu[0], 2))
          .append("%, sys=")
          .append(FioNumbers.fixed(cpu == null ? 0 : cpu[1], 2))
          .append("%, ctx=")
          .append(cpu == null ? 0 : (long) cpu[2])
          .append(", majf=0, minf=0\n");
    }
    FioTextBlocks.ioDepths(out, s.depthPercentages());
    // the model submits and reaps one I/O at a time: fio's batch buckets say 1-4 for all
    String batches = "0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n";
    out.append("     submit    : ").append(batches);
    out.append("     complete  : ").append(batches);
    out.append("     issued rwts: total=")
        .append(s.direction(Direction.READ).totalIos())
        .append(',')
        .append(s.direction(Direction.WRITE).totalIos())
        .append(',')
        .append(s.direction(Direction.TRIM).totalIos())
        .append(',')
        .append(s.sync().count())
        .append(" short=0,0,0,0 dropped=0,0,0,0\n");
    if (s.totalErrors() > 0) {
      out.append("     errors    : total=")
          .append(s.totalErrors())
          .append(", first_error=")
          .append(s.firstError())
          .append("/<")
          .append(Errno.describe(s.firstError()))
          .append(">\n");
    }
    out.append("     latency   : target=0, window=0, percentile=100.00%, depth=")
        .append(info.iodepth())
        .append('\n');
  }

  private static void appendDirection(
      StringBuilder out, JobStats s, Direction d, boolean iec, GroupRunStats group) {
    long runt = s.runtimeMs(d);
    if (runt == 0) {
      return;
    }
    DirectionStats ds = s.direction(d);
    long bw = s.bwBytes(d);
    long iops = 1000L * ds.totalIos() / runt;
    out.append("  ")
        .append(d.fioName())
        .append(": IOPS=")
        .append(num2str(iops, false, Unit.NONE))
        .append(", BW=")
        .append(num2str(bw, iec, Unit.BYTE_PER_SEC))
        .append(" (")
        .append(num2str(bw, !iec, Unit.BYTE_PER_SEC))
        .append(')')
        .append('(')
        .append(num2str(ds.ioBytes(), iec, Unit.BYTE))
        .append('/')
        .append(runt)
        .append("msec)")
        .append(d == Direction.WRITE ? "; 0 zone resets" : "")
        .append('\n');
    if (ds.slat().count() > 0) {
      FioTextBlocks.displayLat(out, "slat", ds.slat());
    }
    // fio's calc_lat: a series without samples is not shown (the file-operation engines have no
    // lat)
    if (ds.clat().count() > 0) {
      FioTextBlocks.displayLat(out, "clat", ds.clat());
    }
    if (ds.lat().count() > 0) {
      FioTextBlocks.displayLat(out, " lat", ds.lat());
    }
    ReportOptions r = s.info().report();
    if (r.slatPercentiles() && ds.slat().count() > 0) {
      FioTextBlocks.percentileGrid(out, "slat", ds.slat(), s.info().percentiles());
    }
    if (r.clatPercentiles()) {
      FioTextBlocks.percentileGrid(out, "clat", ds.clat(), s.info().percentiles());
    }
    if (r.latPercentiles() && ds.lat().count() > 0) {
      FioTextBlocks.percentileGrid(out, " lat", ds.lat(), s.info().percentiles());
    }
    samples(out, s, d, iec, group);
  }

  /** fio's {@code bw ( KiB/s): ...} and {@code iops : ...} lines, when there are samples. */
  private static void samples(
      StringBuilder out, JobStats s, Direction d, boolean iec, GroupRunStats group) {
    double[] bw = s.bwSamples(d);
    if (bw[4] > 0) {
      String unit = iec ? "KiB" : "kB";
      double min = bw[0];
      double max = bw[1];
      double mean = bw[2];
      double dev = bw[3];
      double base = iec ? 1024 : 1000;
      double agg = GroupRunStats.aggPercent(group, d, mean); // fio's per=
      if (mean > base * base) {
        min /= base;
        max /= base;
        mean /= base;
        dev /= base;
        unit = iec ? "MiB" : "MB";
      }
      out.append("   bw (")
          .append(FioNumbers.padLeft(unit, 5))
          .append("/s): min=")
          .append(FioNumbers.padLeft((long) min, 5))
          .append(", max=")
          .append(FioNumbers.padLeft((long) max, 5))
          .append(", per=")
          .append(FioNumbers.fixed(agg, 2))
          .append("%, avg=")
          .append(FioNumbers.fixed(mean, 5, 2))
          .append(", stdev=")
          .append(FioNumbers.fixed(dev, 5, 2))
          .append(", samples=")
          .append((long) bw[4])
          .append('\n');
    }
    double[] iops = s.iopsSamples(d);
    if (iops[4] > 0) {
      out.append("   iops        : min=")
          .append(FioNumbers.padLeft((long) iops[0], 5))
          .append(", max=")
          .append(FioNumbers.padLeft((long) iops[1], 5))
          .append(", avg=")
          .append(FioNumbers.fixed(iops[2], 5, 2))
          .append(", stdev=")
          .append(FioNumbers.fixed(iops[3], 5, 2))
          .append(", samples=")
          .append((long) iops[4])
          .append('\n');
    }
  }

  static void appendGroup(StringBuilder out, GroupRunStats g) {
    out.append("\nRun status group ").append(g.groupId).append(" (all jobs):\n");
    boolean iec = g.kbBase == 1024;
    for (Map.Entry<Direction, GroupRunStats.Line> e : g.lines.entrySet()) {
      GroupRunStats.Line l = e.getValue();
      out.append(e.getKey().groupLabel())
          .append(": bw=")
          .append(num2str(l.aggBw(), iec, Unit.BYTE_PER_SEC))
          .append(" (")
          .append(num2str(l.aggBw(), !iec, Unit.BYTE_PER_SEC))
          .append("), ")
          .append(num2str(l.minBw(), iec, Unit.BYTE_PER_SEC))
          .append('-')
          .append(num2str(l.maxBw(), iec, Unit.BYTE_PER_SEC))
          .append(" (")
          .append(num2str(l.minBw(), !iec, Unit.BYTE_PER_SEC))
          .append('-')
          .append(num2str(l.maxBw(), !iec, Unit.BYTE_PER_SEC))
          .append("), io=")
          .append(num2str(l.ioBytes(), iec, Unit.BYTE))
          .append(" (")
          .append(num2str(l.ioBytes(), !iec, Unit.BYTE))
          .append("), run=")
          .append(l.minRunMs())
          .append('-')
          .append(l.maxRunMs())
          .append("msec\n");
    }
  }
}
