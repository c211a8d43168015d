package io.mqroute.actors.machine;

import io.mqroute.metrics.JobStats;
import java.util.List;

/** Messages of the Machine actor (the root of a run). */
public final class MachineProtocol {
  private MachineProtocol() {}

  public sealed interface Command
      permits JobDone,
          Stalled,
          Violation,
          GotRouter,
          GotQueue,
          GotCore,
          Remounted,
          Proceed,
          GotPerturbation,
          SteadyStateTick,
          SteadyStateSampled {}

  /** fio's helper thread wakes for steadystate_check. */
  enum SteadyStateTick implements Command {
    INSTANCE
  }

  /** A clone's counters for the steady-state check. */
  record SteadyStateSampled(SteadyState.Sample sample) implements Command {}

  /** A job has issued everything and every request it issued has ended. */
  public record JobDone(int job, JobStats stats, LittlesLaw little) implements Command {}

  /** A job has had requests outstanding for the stall limit without a single completion. */
  public record Stalled(int job, long sinceNanos, List<Long> outstanding) implements Command {}

  /** A broken invariant seen by a job (duplicate or unknown completion). */
  public record Violation(String what) implements Command {}

  record GotRouter(FlowProtocol.RouterStats stats) implements Command {}

  record GotQueue(FlowProtocol.QueueStats stats) implements Command {}

  record GotCore(CoreProtocol.CoreStats stats) implements Command {}

  /** A queue's or the router's answer to an unmount: what it still held (empty when drained). */
  public record Remounted(List<String> problems) implements Command {}

  /** The perturbation is ready for the next job group. */
  public record Proceed(int group) implements Command {}

  /** The perturbation's account of the run. */
  public record GotPerturbation(PerturbationProtocol.Report report) implements Command {}
}
