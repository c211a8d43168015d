package io.mqroute.metrics;

import java.util.ArrayList;
import java.util.List;

/**
 * fio's rule for which job clones are reported together ({@code __show_run_stats}): walking the
 * clones in order, a clone joins the previous report unit when it has {@code group_reporting} set
 * and the same group id as the clone before it; otherwise it starts a new unit.
 */
public final class GroupReporting {

  private GroupReporting() {}

  /**
   * The report units for a run: each unit is one clone's statistics or the {@link JobStats#merge}
   * of a group's clones. Order is preserved.
   */
  public static List<JobStats> units(List<JobStats> clones) {
    List<JobStats> units = new ArrayList<>();
    List<JobStats> current = new ArrayList<>();
    int lastGroup = -1;
    for (JobStats clone : clones) {
      JobInfo info = clone.info();
      if (!current.isEmpty() && (!info.groupReporting() || lastGroup != info.groupId())) {
        units.add(finish(current));
        current = new ArrayList<>();
      }
      lastGroup = info.groupId();
      current.add(clone);
    }
    if (!current.isEmpty()) {
      units.add(finish(current));
    }
    return units;
  }

  private static JobStats finish(List<JobStats> unit) {
    return unit.size() == 1 ? unit.get(0) : JobStats.merge(unit);
  }
}
