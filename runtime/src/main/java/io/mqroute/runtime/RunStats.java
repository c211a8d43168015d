package io.mqroute.runtime;

/**
 * What one {@link VirtualTimeDriver#runUntil} call did. Everything except {@link #wallNanos()} is
 * deterministic for a deterministic model.
 *
 * @param stopReason why the run returned
 * @param tasksRun run-queue tasks executed (mostly mailbox runs)
 * @param timersFired timers fired
 * @param deliveredRuns mailbox runs that were part of a timer's event: a lone timed delivery's, run
 *     at once (straight into an idle receiver; see {@code VirtualTimeScheduler.deliverLone}); not
 *     in {@code tasksRun}. Events are {@code tasksRun + timersFired}; mailbox runs are {@code
 *     tasksRun + deliveredRuns}
 * @param startVirtualNanos the virtual clock when the run began
 * @param finalVirtualNanos the virtual clock when the run returned
 * @param foreignTasks run-queue tasks and messages to simulated actors that came from threads other
 *     than the driver during the run (tasks pending at its start included). A returned {@code
 *     RunStats} always has 0 here: otherwise the driver throws {@link ForeignTaskException}, which
 *     carries the stats.
 * @param wallNanos wall-clock duration of the run (not deterministic; for throughput reports only)
 */
public record RunStats(
    StopReason stopReason,
    long tasksRun,
    long timersFired,
    long deliveredRuns,
    long startVirtualNanos,
    long finalVirtualNanos,
    long foreignTasks,
    long wallNanos) {

  /** Why a run returned. */
  public enum StopReason {
    /** The done condition became true. */
    DONE,
    /** The next timer lies beyond the horizon; the clock was moved to the horizon. */
    HORIZON,
    /** No ready task and no pending timer: nothing can ever happen again. */
    IDLE,
    /**
     * A task from a foreign thread ran or arrived; only seen inside {@link ForeignTaskException}.
     */
    FOREIGN_TASK,
    /** {@code mqroute.runtime.max-tasks-per-instant} tasks ran without virtual time moving. */
    LIVELOCK
  }

  /** True if the done condition was met. */
  public boolean done() {
    return stopReason == StopReason.DONE;
  }
}
