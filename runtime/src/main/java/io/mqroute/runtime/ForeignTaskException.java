package io.mqroute.runtime;

/**
 * A deterministic run was broken: during {@link VirtualTimeDriver#runUntil} a task reached the run
 * queue, or a message reached a simulated actor, from a thread other than the driver (typically a
 * {@code CompletionStage} callback on the common pool, an actor on a real dispatcher talking to a
 * simulated one, or a test thread sending a message). Its results must not be trusted.
 */
public final class ForeignTaskException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final transient RunStats stats;

  ForeignTaskException(RunStats stats, String lastSource) {
    super(
        stats.foreignTasks()
            + " task(s)/message(s) from foreign threads during a virtual-time run (last: "
            + lastSource
            + "); the run is not deterministic. Wrap CompletionStages with DirectStage.of and keep Pekko-internal "
            + "actors out of the simulation. Stats: "
            + stats);
    this.stats = stats;
  }

  /** The statistics of the interrupted run ({@code stopReason} may be {@code FOREIGN_TASK}). */
  public RunStats stats() {
    return stats;
  }
}
