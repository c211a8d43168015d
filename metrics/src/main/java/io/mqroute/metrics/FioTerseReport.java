package io.mqroute.metrics;

import java.util.List;
import java.util.Map;

/**
 * fio's {@code --output-format=terse} (terse version 3, fio's default; stat.c {@code
 * show_thread_status_terse_all}): one semicolon-separated line per report unit, latencies in µs, 20
 * percentile fields ({@code 0%=0} for the unused ones), bandwidth samples with their share of the
 * group, CPU usage, the 7 depth and 22 latency distribution fields. fio's version field is {@link
 * FioJsonReport#FIO_VERSION}{@code -mqroute-<version>}.
 */
public final class FioTerseReport {

  private FioTerseReport() {}

  /** The terse lines of {@code clones} ({@code group_reporting} applied), without disk fields. */
  public static String render(List<JobStats> clones, String version) {
    return render(clones, version, "");
  }

  /**
   * The terse lines with fio's disk utilisation fields ({@code name;read ios;write ios;read
   * merges;write merges;read ticks;write ticks;in queue;util%}) after the latency ones, as fio 3.33
   * writes them; {@code disk} is those fields without a leading ';', or empty.
   */
  public static String render(List<JobStats> clones, String version, String disk) {
    List<JobStats> units = GroupReporting.units(clones);
    Map<Integer, GroupRunStats> groups = GroupRunStats.of(units);
    StringBuilder out = new StringBuilder();
    for (JobStats s : units) {
      GroupRunStats g = groups.get(s.info().groupId());
      out.append("3;")
          .append(FioJsonReport.FIO_VERSION)
          .append("-mqroute-")
          .append(version)
          .append(';')
          .append(s.info().name())
          .append(';')
          .append(s.info().groupId())
          .append(';')
          .append(s.firstError());
      direction(out, s, Direction.READ, g);
      direction(out, s, Direction.WRITE, g);
      out.append(";0.000000%;0.000000%;0;0;0");
      for (double d : s.depthPercentages()) {
        out.append(';').append(FioNumbers.fixed(d, 1)).append('%');
      }
      long[] buckets = s.latencyBucketCounts();
      long total = s.totalIos();
      double[] ns = LatencyBuckets.percentages(buckets, 0, 10, total);
      double[] us = LatencyBuckets.percentages(buckets, LatencyBuckets.US_OFFSET, 10, total);
      double[] ms = LatencyBuckets.percentages(buckets, LatencyBuckets.MS_OFFSET, 12, total);
      for (double n : ns) {
        us[0] += n; // stat_calc_lat_nu: the nanosecond buckets count as the first µs one
      }
      for (double u : us) {
        out.append(';').append(FioNumbers.fixed(u, 2)).append('%');
      }
      for (double m : ms) {
        out.append(';').append(FioNumbers.fixed(m, 2)).append('%');
      }
      if (!disk.isEmpty()) {
        out.append(';').append(disk);
      }
      if (!s.info().description().isEmpty()) {
        out.append(';').append(s.info().description());
      }
      out.append('\n');
    }
    return out.toString();
  }

  private static void direction(StringBuilder out, JobStats s, Direction d, GroupRunStats g) {
    DirectionStats ds = s.direction(d);
    long runt = s.runtimeMs(d);
    long bw = runt == 0 ? 0 : 1000 * ds.ioBytes() / runt / 1024;
    long iops = runt == 0 ? 0 : 1000 * ds.totalIos() / runt;
    out.append(';')
        .append(ds.ioBytes() >> 10)
        .append(';')
        .append(bw)
        .append(';')
        .append(iops)
        .append(';')
        .append(runt);
    lat(out, ds.slat());
    lat(out, ds.clat());
    ReportOptions r = s.info().report();
    LatencyStat p = r.latPercentiles() ? ds.lat() : r.clatPercentiles() ? ds.clat() : null;
    PercentileList list = s.info().percentiles();
    for (int i = 0; i < PercentileList.MAX_VALUES; i++) {
      if (p == null || p.count() == 0 || i >= list.size()) {
        out.append(";0%=0");
      } else {
        out.append(';')
            .append(FioNumbers.fixed(list.values().get(i), 6))
            .append("%=")
            .append(p.valueAtPercentile(list.values().get(i)) / 1000);
      }
    }
    lat(out, ds.lat());
    double[] b = s.bwSamples(d);
    GroupRunStats.Line line = g == null ? null : g.lines.get(d);
    double agg = 0;
    if (b[4] > 0) {
      agg = 100.0;
      if (line != null && line.aggBw() / 1024 > 0) {
        agg = Math.min(100.0, b[2] * 100 / (double) (line.aggBw() / 1024));
      }
    }
    out.append(';')
        .append((long) b[0])
        .append(';')
        .append((long) b[1])
        .append(';')
        .append(FioNumbers.fixed(agg, 6))
        .append("%;")
        .append(FioNumbers.fixed(b[2], 6))
        .append(';')
        .append(FioNumbers.fixed(b[3], 6));
  }

  private static void lat(StringBuilder out, LatencyStat l) {
    if (l.count() == 0) {
      out.append(";0;0;0.000000;0.000000");
      return;
    }
    out.append(';')
        .append(l.min() / 1000)
        .append(';')
        .append(l.max() / 1000)
        .append(';')
        .append(FioNumbers.fixed(l.mean() / 1000, 6))
        .append(';')
        .append(FioNumbers.fixed(l.stddev() / 1000, 6));
  }
}
