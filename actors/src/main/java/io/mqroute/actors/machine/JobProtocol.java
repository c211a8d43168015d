package io.mqroute.actors.machine;

import io.mqroute.protocol.Completion;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a Job actor. */
public final class JobProtocol {
  private JobProtocol() {}

  public sealed interface Command
      permits Start,
          Completed,
          Arrival,
          RampDone,
          RunEnd,
          StallCheck,
          Hotplug,
          StartDelayOver,
          Think,
          Terminate,
          FlowMoved,
          FlowSlept,
          SampleSteadyState {}

  /** Begin issuing (sent by the machine once everything is spawned). */
  public enum Start implements Command {
    INSTANCE
  }

  /** The clone's flow changed while it was held back: check again ({@link FioFlow#hold}). */
  enum FlowMoved implements Command {
    INSTANCE
  }

  /** The machine's steady-state check asks for the clone's counters. */
  record SampleSteadyState(ActorRef<MachineProtocol.Command> replyTo) implements Command {}

  /** flow_sleep is over: check the flow again. */
  enum FlowSlept implements Command {
    INSTANCE
  }

  /** A request of this job has ended and the app thread has reaped it. */
  public record Completed(Completion completion) implements Command {}

  /**
   * The set of online CPUs changed. An app thread on a CPU that went offline moves, as
   * select_fallback_rq moves it ({@link io.mqroute.actors.cpu.FallbackCpu}): to the lowest allowed
   * online CPU of its node, else the lowest allowed online CPU, else (its affinity broken) the
   * lowest online CPU.
   */
  public record Hotplug(boolean[] online, int[] cpuToNode) implements Command {}

  enum Arrival implements Command {
    INSTANCE
  }

  /**
   * The two ends of a thinktime pause: the CPU part (thinktime_spin) has run, the sleep is over.
   */
  enum Think implements Command {
    SPUN,
    SLEPT
  }

  /** startdelay= is over: the job starts now. */
  enum StartDelayOver implements Command {
    INSTANCE
  }

  /**
   * Stop now (fio's td->terminate): no more I/O and no verify phase; what is in flight is reaped
   * and the job reports as at the end of its runtime; a job that has not started reports at once
   * and never runs. Sent when the storage is gone (a load client's router), by exitall and when
   * steady state is reached.
   */
  public enum Terminate implements Command {
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
