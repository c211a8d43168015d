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
    List<JobStats> units = GroupReporting.units(clones);
    Map<Integer, GroupRunStats> groups = GroupRunStats.of(units);
    StringBuilder out = new StringBuilder(4096);
    for (JobStats unit : units) {
      appendJob(out, unit, groups.get(unit.info().groupId()), timeLabel);
    }
    for (GroupRunStats group : groups.values()) {
      appendGroup(out, group);
    }
    return out.toString();
  }

  static void appendJob(StringBuilder out, JobStats s, GroupRunStats group, String timeLabel) {
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
        appendDirection(out, s, d, iec);
      }
    }
    FioTextBlocks.latencyBuckets(out, s.latencyBucketCounts(), s.totalIos());
    if (s.sync().count() > 0) {
      out.append("  fsync/fdatasync/sync_file_range:\n");
      FioTextBlocks.displayLat(out, "sync", s.sync());
      FioTextBlocks.percentileGrid(out, "sync", s.sync(), info.percentiles());
    }
    FioTextBlocks.ioDepths(out, s.depthPercentages());
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

  private static void appendDirection(StringBuilder out, JobStats s, Direction d, boolean iec) {
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
    FioTextBlocks.displayLat(out, "clat", ds.clat());
    FioTextBlocks.displayLat(out, " lat", ds.lat());
    FioTextBlocks.percentileGrid(out, "clat", ds.clat(), s.info().percentiles());
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
