package io.mqroute.actors.machine;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a Job actor. */
public final class JobProtocol {
  private JobProtocol() {}

  /** The request path ({@link Data}) or the rest ({@link Control}). */
  public sealed interface Command permits Data, Control {}

  /** A request's path: issue the next one (arrival, think time, the flow), reap one. */
  public sealed interface Data extends Command {}

  /** Everything else: start, ramp, run end, stall checks, hotplug, termination, samples. */
  public sealed interface Control extends Command {}

  /** Begin issuing (sent by the machine once everything is spawned). */
  public enum Start implements Control {
    INSTANCE
  }

  /** The clone's flow changed while it was held back: check again ({@link FioFlow#hold}). */
  enum FlowMoved implements Data {
    INSTANCE
  }

  /** The machine's steady-state check asks for the clone's counters. */
  record SampleSteadyState(ActorRef<MachineProtocol.Command> replyTo) implements Control {}

  /** flow_sleep is over: check the flow again. */
  enum FlowSlept implements Data {
    INSTANCE
  }

  /**
   * The job's submit work for a request has run, and io_uring punts it to the job's io-wq ({@link
   * IoUringPunt#IO_WQ}: io_read → -EAGAIN → io_queue_iowq → io_wq_enqueue).
   */
  record Punted(Request request) implements Data {}

  /** The job's io-wq worker has issued a punted request (io_wq_submit_work → io_issue_sqe). */
  record IoWqIssued(Request request) implements Data {}

  /** A request of this job has ended and the app thread has reaped it. */
  public record Completed(Completion completion) implements Data {}

  /**
   * The set of online CPUs changed. An app thread on a CPU that went offline moves, as
   * select_fallback_rq moves it ({@link io.mqroute.actors.cpu.FallbackCpu}): to the lowest allowed
   * online CPU of its node, else the lowest allowed online CPU, else (its affinity broken) the
   * lowest online CPU.
   */
  public record Hotplug(boolean[] online, int[] cpuToNode) implements Control {}

  enum Arrival implements Data {
    INSTANCE
  }

  /**
   * The two ends of a thinktime pause: the CPU part (thinktime_spin) has run, the sleep is over.
   */
  enum Think implements Data {
    SPUN,
    SLEPT
  }

  /** startdelay= is over: the job starts now. */
  enum StartDelayOver implements Control {
    INSTANCE
  }

  /**
   * Stop now (fio's td->terminate): no more I/O and no verify phase; what is in flight is reaped
   * and the job reports as at the end of its runtime; a job that has not started reports at once
   * and never runs. Sent when the storage is gone (a load client's router), by exitall and when
   * steady state is reached.
   */
  public enum Terminate implements Control {
    INSTANCE
  }

  enum RampDone implements Control {
    INSTANCE
  }

  enum RunEnd implements Control {
    INSTANCE
  }

  enum StallCheck implements Control {
    INSTANCE
  }
}
