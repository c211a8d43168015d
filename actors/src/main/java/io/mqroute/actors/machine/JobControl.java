package io.mqroute.actors.machine;

import java.util.Arrays;
import java.util.Objects;

/**
 * How a job clone's run depends on the other jobs', beyond stonewall groups: fio's {@code
 * wait_for}, {@code exitall} with {@code exit_what}, and flow control ({@code flow}, {@code
 * flow_id}, {@code flow_sleep}). {@link #NONE}: the job runs on its own.
 *
 * @param waitFor the plan indices this clone waits for (fio's {@code wait_for=NAME}: every clone of
 *     the jobs of that name): it starts, within its stonewall group, once all of them have ended
 *     (backend.c {@code waitee_running})
 * @param exitWhat when this clone ends, which other clones fio's {@code exitall} ends too ({@code
 *     exit_what}, fio's {@code fio_terminate_threads}); null without {@code exitall}
 * @param fioGroup fio's group id ({@code td->groupid}: +1 at every {@code stonewall} or {@code
 *     new_group}), what {@code exit_what=group} ends
 * @param flowId fio's {@code flow_id}: clones with the same id share one flow
 * @param flowWeight fio's {@code flow} weight, 0 for no flow control
 * @param flowSleepNanos fio's {@code flow_sleep}: a clone held back drains its I/O and sleeps this
 *     long before it checks again; 0: it checks again whenever the flow moves
 * @param steadyState fio's steady-state detection ({@link SteadyStateMonitor}), null for none
 * @param groupReporting fio's {@code group_reporting}: steady state is judged over the group
 */
public record JobControl(
    int[] waitFor,
    ExitWhat exitWhat,
    int fioGroup,
    int flowId,
    int flowWeight,
    long flowSleepNanos,
    SteadyState steadyState,
    boolean groupReporting) {

  /** fio's {@code exit_what}. */
  public enum ExitWhat {
    /** The clones of the same fio group ({@code TERMINATE_GROUP}, the default). */
    GROUP,
    /** Every clone that is running, in any group ({@code TERMINATE_STONEWALL}). */
    STONEWALL,
    /** Every clone, also those that have not started: they never run ({@code TERMINATE_ALL}). */
    ALL
  }

  public static final JobControl NONE = new JobControl(new int[0], null, 0, 0, 0, 0, null, false);

  public JobControl {
    waitFor = waitFor.clone();
    if (flowWeight < 0 || flowSleepNanos < 0 || fioGroup < 0) {
      throw new IllegalArgumentException("flow weight, flow_sleep and group must be >= 0");
    }
  }

  @Override
  public int[] waitFor() {
    return waitFor.clone();
  }

  /** Whether the clone waits for another to end before it starts. */
  public boolean waits() {
    return waitFor.length > 0;
  }

  /** Whether fio's flow control holds this clone to its share. */
  public boolean flows() {
    return flowWeight > 0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobControl c
        && Arrays.equals(waitFor, c.waitFor)
        && exitWhat == c.exitWhat
        && fioGroup == c.fioGroup
        && flowId == c.flowId
        && flowWeight == c.flowWeight
        && flowSleepNanos == c.flowSleepNanos
        && Objects.equals(steadyState, c.steadyState)
        && groupReporting == c.groupReporting;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(waitFor) * 31
        + Objects.hash(
            exitWhat, fioGroup, flowId, flowWeight, flowSleepNanos, steadyState, groupReporting);
  }

  @Override
  public String toString() {
    return "JobControl[waitFor="
        + Arrays.toString(waitFor)
        + ", exitWhat="
        + exitWhat
        + ", fioGroup="
        + fioGroup
        + ", flow="
        + flowId
        + "/"
        + flowWeight
        + "/"
        + flowSleepNanos
        + ", steadyState="
        + steadyState
        + "]";
  }
}
