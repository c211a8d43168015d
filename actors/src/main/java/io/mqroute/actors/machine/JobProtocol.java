package io.mqroute.actors.machine;

import io.mqroute.protocol.Completion;

/** Messages of a Job actor. */
public final class JobProtocol {
  private JobProtocol() {}

  public sealed interface Command
      permits Start, Completed, Arrival, RampDone, RunEnd, StallCheck, Hotplug, StartDelayOver {}

  /** Begin issuing (sent by the machine once everything is spawned). */
  public enum Start implements Command {
    INSTANCE
  }

  /** A request of this job has ended and the app thread has reaped it. */
  public record Completed(Completion completion) implements Command {}

  /**
   * The set of online CPUs changed. An app thread on a CPU that went offline moves, as select_fallback_rq
   * moves it: to an online CPU it is allowed on (its own NUMA node first), else to any online CPU of its node,
   * else to any online CPU (its affinity is broken).
   */
  public record Hotplug(boolean[] online, int[] cpuToNode) implements Command {}

  enum Arrival implements Command {
    INSTANCE
  }

  /** startdelay= is over: the job starts now. */
  enum StartDelayOver implements Command {
    INSTANCE
  }

  enum RampDone implements Command {
    INSTANCE
  }

  enum RunEnd implements Command {
    INSTANCE
  }

  enum StallCheck implements Command {
    INSTANCE
  }
}
