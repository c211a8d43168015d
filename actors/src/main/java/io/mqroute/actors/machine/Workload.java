package io.mqroute.actors.machine;

import io.mqroute.metrics.JobStats;
import java.util.List;
import java.util.Map;

/**
 * The application side of an experiment: which job clones run, and how fio names and groups them.
 */
public interface Workload {
  /** The job clones on {@code machine} (CPU placement depends on its topology). */
  List<JobPlan> plans(MachineSpec machine);

  /** A fresh statistics object for clone {@code plan}. */
  JobStats newStats(JobPlan plan);

  /** fio's top-level "global options" (empty if the job file had no [global]). */
  Map<String, String> globalOptions();

  /** A workload text that can be parsed with different fio option overrides (variants, sweeps). */
  @FunctionalInterface
  interface Source {
    Workload parse(Map<String, String> fioOverrides);
  }
}
