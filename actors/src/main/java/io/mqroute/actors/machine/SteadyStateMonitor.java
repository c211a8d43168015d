package io.mqroute.actors.machine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * fio's steadystate_check over the jobs of a run, run by the machine every check interval (fio's
 * helper thread): for each running job in order it adds up the group's IOPS, bandwidth and latency
 * since the last check and, at the job that holds the window, judges it; the jobs whose criterion
 * is met are returned to be ended. A plain object: the machine feeds it samples.
 */
final class SteadyStateMonitor {
  private final Map<Integer, SteadyState.Tracker> trackers = new TreeMap<>();
  private final List<JobPlan> plans;
  private final long intervalMs;

  SteadyStateMonitor(List<JobPlan> plans) {
    this.plans = plans;
    long interval = 0;
    // steadystate_setup: the window belongs to the job itself, or (group_reporting) to the last
    // job with steadystate of each run of the same group
    int prevGroup = -1;
    SteadyState.Tracker prev = null;
    for (JobPlan p : plans) {
      SteadyState ss = p.control().steadyState();
      if (ss == null) {
        continue;
      }
      interval = ss.intervalMs();
      SteadyState.Tracker t =
          new SteadyState.Tracker(ss, p.control().groupReporting(), p.control().fioGroup());
      trackers.put(p.index(), t);
      if (!t.groupReporting) {
        t.allocate();
        continue;
      }
      if (prevGroup != t.group) {
        if (prev != null) {
          prev.allocate();
        }
        prevGroup = t.group;
      }
      prev = t;
    }
    if (prev != null && prev.groupReporting) {
      prev.allocate();
    }
    this.intervalMs = interval;
  }

  /** Whether any job judges steady state. */
  boolean enabled() {
    return !trackers.isEmpty();
  }

  long intervalNanos() {
    return intervalMs * 1_000_000L;
  }

  /** The jobs that take part: the machine asks these for samples while they run. */
  List<Integer> jobs() {
    return List.copyOf(trackers.keySet());
  }

  /** The job has started (its epoch). */
  void started(int job, long nowNanos) {
    SteadyState.Tracker t = trackers.get(job);
    if (t != null) {
      t.start(nowNanos);
    }
  }

  /**
   * One check at {@code nowNanos} over the samples of the jobs that are running; returns the jobs
   * to end (all of a group with group_reporting).
   */
  List<Integer> check(long nowNanos, Map<Integer, SteadyState.Sample> running) {
    List<Integer> end = new ArrayList<>();
    int prevGroup = -1;
    long groupBw = 0;
    long groupIops = 0;
    double groupLatSum = 0;
    long groupLatSamples = 0;
    int groupRampOver = 0;
    for (Map.Entry<Integer, SteadyState.Tracker> e : trackers.entrySet()) {
      SteadyState.Tracker t = e.getValue();
      SteadyState.Sample s = running.get(e.getKey());
      if (s == null || t.attained) {
        continue;
      }
      if (!t.groupReporting || t.group != prevGroup) {
        groupBw = 0;
        groupIops = 0;
        groupLatSum = 0;
        groupLatSamples = 0;
        groupRampOver = 0;
      }
      prevGroup = t.group;
      long sinceEpochUs = (nowNanos - t.epochNanos) / 1000;
      if (!t.rampOver && sinceEpochUs >= t.ss.rampNanos() / 1000 + intervalMs * 1000L) {
        t.rampOver = true;
      }
      long rateTime = (nowNanos - t.prevTimeNanos) / 1_000_000L; // mtime_since
      t.prevTimeNanos = nowNanos;
      long per = intervalMs * intervalMs / 1000L;
      if (t.rampOver) {
        groupBw += rateTime * (s.bytes() - t.prevBytes) / per;
        groupIops += rateTime * (s.ios() - t.prevIops) / per;
        groupLatSum += s.clatSum() - t.prevLatSum;
        groupLatSamples += s.clatSamples() - t.prevLatSamples;
        groupRampOver++;
      }
      t.prevIops = s.ios();
      t.prevBytes = s.bytes();
      t.prevLatSum = s.clatSum();
      t.prevLatSamples = s.clatSamples();
      if (t.groupReporting && !t.hasData) {
        continue;
      }
      if (groupRampOver == 0) {
        continue;
      }
      double lat = groupLatSamples > 0 ? groupLatSum / groupLatSamples : 0.0;
      boolean met =
          t.ss.slope() ? t.slope(groupIops, groupBw, lat) : t.deviation(groupIops, groupBw, lat);
      if (!met) {
        continue;
      }
      if (t.groupReporting) {
        for (JobPlan p : plans) {
          if (p.control().fioGroup() == t.group) {
            SteadyState.Tracker other = trackers.get(p.index());
            if (other != null) {
              other.attained = true;
            }
            end.add(p.index());
          }
        }
      } else {
        t.attained = true;
        end.add(e.getKey());
      }
    }
    return end;
  }
}
