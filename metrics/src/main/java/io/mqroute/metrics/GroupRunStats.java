package io.mqroute.metrics;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The figures of one {@code Run status group N (all jobs):} block, computed over the report units
 * of the group as fio does ({@code struct group_run_stats}): per direction the shortest and longest
 * runtime, the smallest and largest per-unit bandwidth, the total bytes, and the aggregate
 * bandwidth {@code total bytes * 1000 / longest runtime}.
 */
final class GroupRunStats {

  /** Per direction figures; {@code maxRunMs == 0} means the direction did not run. */
  record Line(long minRunMs, long maxRunMs, long minBw, long maxBw, long ioBytes, long aggBw) {}

  final int groupId;
  final int kbBase;
  final Map<Direction, Line> lines = new EnumMap<>(Direction.class);

  private GroupRunStats(int groupId, int kbBase) {
    this.groupId = groupId;
    this.kbBase = kbBase;
  }

  /**
   * One entry per group id from 0 to the largest seen, like fio (a group without units is empty).
   */
  static Map<Integer, GroupRunStats> of(List<JobStats> units) {
    Map<Integer, GroupRunStats> groups = new TreeMap<>();
    int maxGroup = -1;
    for (JobStats u : units) {
      maxGroup = Math.max(maxGroup, u.info().groupId());
    }
    for (int g = 0; g <= maxGroup; g++) {
      // fio's __show_run_stats sets the group's kb_base from every member in turn: the last one
      // wins
      int kbBase = 1024;
      for (JobStats u : units) {
        if (u.info().groupId() == g) {
          kbBase = u.info().kbBase();
        }
      }
      GroupRunStats group = new GroupRunStats(g, kbBase);
      for (Direction d : Direction.values()) {
        group.addLine(d, units);
      }
      groups.put(g, group);
    }
    return groups;
  }

  /**
   * fio's {@code convert_agg_kbytes_percent}: a unit's mean bandwidth sample (KiB/s, taken as an
   * int) against the aggregate bandwidth of its group in direction {@code d}, in percent, at most
   * 100; 100 without a group or with an aggregate of at most 1 KiB/s.
   */
  static double aggPercent(GroupRunStats group, Direction d, double meanKiB) {
    Line line = group == null ? null : group.lines.get(d);
    return line != null && line.aggBw() > 1024
        ? Math.min(100.0, (long) meanKiB * 100.0 / (line.aggBw() / 1024.0))
        : 100.0;
  }

  private void addLine(Direction d, List<JobStats> units) {
    long minRun = 0;
    long maxRun = 0;
    long minBw = Long.MAX_VALUE;
    long maxBw = 0;
    long bytes = 0;
    for (JobStats u : units) {
      long runt = u.info().groupId() == groupId ? u.runtimeMs(d) : 0;
      if (runt == 0) {
        continue;
      }
      minRun = minRun == 0 ? runt : Math.min(minRun, runt);
      maxRun = Math.max(maxRun, runt);
      long bw = u.bwBytes(d);
      minBw = Math.min(minBw, bw);
      maxBw = Math.max(maxBw, bw);
      bytes += u.direction(d).ioBytes();
    }
    if (maxRun > 0) {
      lines.put(d, new Line(minRun, maxRun, minBw, maxBw, bytes, bytes * 1000 / maxRun));
    }
  }
}
