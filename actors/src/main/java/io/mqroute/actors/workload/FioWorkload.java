package io.mqroute.actors.workload;

import io.mqroute.actors.experiment.Workload;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.metrics.JobStats;
import java.util.List;
import java.util.Map;

/** Placeholder until the fio parser lands. */
public final class FioWorkload implements Workload {
  public static FioWorkload parse(String text, String source) {
    throw new UnsupportedOperationException("fio parser not merged yet");
  }

  @Override
  public List<JobPlan> plans(MachineSpec machine) {
    return List.of();
  }

  @Override
  public JobStats newStats(JobPlan plan) {
    return null;
  }

  @Override
  public Map<String, String> globalOptions() {
    return Map.of();
  }
}
