package io.mqroute.workload;

import io.mqroute.actors.machine.JobControl;
import io.mqroute.actors.machine.SteadyState;

/**
 * A job's options that tie it to other jobs, as written: fio's {@code wait_for}, {@code exitall}
 * with {@code exit_what}, {@code new_group} (through {@code fioGroup}) and flow control. The
 * workload turns names into clone indices ({@link JobControl}).
 *
 * @param waitFor {@code wait_for=}: the name of the job this one starts after, null for none
 * @param waitForLine the line of {@code wait_for}
 * @param exitAll {@code exitall} was written in this job's options (fio: anywhere in the file makes
 *     it apply to every job)
 * @param exitWhat {@code exit_what} (default group)
 * @param fioGroup fio's group id: +1 at a {@code stonewall} or {@code new_group} after a job
 * @param flowId {@code flow_id}
 * @param flowWeight {@code flow}, 0 for none
 * @param flowSleepNs {@code flow_sleep} in ns
 * @param steadyState {@code steadystate} with its duration, ramp and interval; null without {@code
 *     ss_dur}
 */
public record FioJobControl(
    String waitFor,
    int waitForLine,
    boolean exitAll,
    JobControl.ExitWhat exitWhat,
    int fioGroup,
    int flowId,
    int flowWeight,
    long flowSleepNs,
    SteadyState steadyState) {

  /** Whether flow control applies to the job. */
  public boolean flows() {
    return flowWeight > 0;
  }
}
