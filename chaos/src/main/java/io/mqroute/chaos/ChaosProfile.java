package io.mqroute.chaos;

import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.workload.FioWorkload;
import java.nio.file.Path;
import java.util.List;

/**
 * A chaos run as a profile describes it, resolved (see {@link ChaosProfileParser} for the keys and
 * the shipped {@code generic-650} profile for the defaults and where they come from).
 *
 * @param text the profile's HOCON text, kept so a replay file can carry it
 * @param baseDir where the profile's relative file names point
 * @param machine the machine, with the selector already wrapped for {@link Semantics#HOTPLUG_AWARE}
 * @param hotpluggable the CPUs the random flips pick from (never CPU 0)
 * @param hotplugIntervalNanos a random flip every this long (0: scripted events only)
 * @param writers writer jobs per iteration (load-factor × hotpluggable CPUs)
 * @param writerOptions fio options of one writer (one per line)
 * @param blockSize bytes per I/O (fio bs=)
 * @param opsPerWriter I/Os per writer per iteration (fsstress -n)
 * @param iterationRuntimeNanos an iteration ends after this long even if writers are not done
 *     (--duration)
 * @param verifyOps I/Os of the final check job pinned to each CPU
 * @param maxWaitNanos no request may stay on a queue longer than this
 */
public record ChaosProfile(
    String name,
    String description,
    String text,
    Path baseDir,
    Semantics semantics,
    MachineSpec machine,
    int iterations,
    List<Integer> hotpluggable,
    long hotplugIntervalNanos,
    int writers,
    String writerOptions,
    long blockSize,
    int opsPerWriter,
    long iterationRuntimeNanos,
    int verifyOps,
    long maxWaitNanos,
    List<FaultSchedule> faults,
    List<ChaosEvent> events,
    boolean quick) {

  public ChaosProfile {
    hotpluggable = List.copyOf(hotpluggable);
    faults = List.copyOf(faults);
    events = List.copyOf(events);
  }

  /** The generated job file, parsed (its source named after the profile). */
  public FioWorkload workload() {
    return FioWorkload.parse(jobFile(), name + " (generated job file)");
  }

  /** The job clones of {@link #workload()} on this profile's machine (what a seed runs). */
  public List<JobPlan> plans() {
    return workload().plans(machine);
  }

  /**
   * The fio job file of the run: {@code iterations} groups of writers (each group waits for the
   * previous: stonewall), then one group with a job pinned to every CPU, which proves every CPU
   * serves again.
   */
  public String jobFile() {
    StringBuilder sb =
        new StringBuilder("[global]\n")
            .append(writerOptions.strip())
            .append('\n')
            .append("bs=")
            .append(blockSize)
            .append('\n');
    for (int i = 0; i < iterations; i++) {
      sb.append("\n[iteration-").append(i + 1).append("]\n");
      if (i > 0) {
        sb.append("stonewall\n");
      }
      sb.append("numjobs=")
          .append(writers)
          .append('\n')
          .append("size=")
          .append(opsPerWriter * blockSize)
          .append('\n')
          .append("runtime=")
          .append(iterationRuntimeNanos / 1000)
          .append("us\n");
    }
    int cpus = machine.topology().cpuCount();
    for (int c = 0; c < cpus; c++) {
      sb.append("\n[verify-cpu").append(c).append("]\n");
      if (c == 0) {
        sb.append("stonewall\n");
      }
      sb.append("cpus_allowed=")
          .append(c)
          .append('\n')
          .append("size=")
          .append(verifyOps * blockSize)
          .append('\n');
    }
    return sb.toString();
  }
}
