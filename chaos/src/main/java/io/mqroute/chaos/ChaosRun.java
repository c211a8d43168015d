package io.mqroute.chaos;

import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.strategy.Durations;
import io.mqroute.workload.FioWorkload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs one seed of a chaos profile in virtual time and checks it: architecture.md §4's invariants
 * (each job checks every completion as it arrives; the queues check the ring bound at its peak and
 * in_flight == on_ring + queued at every unmount and at the end), plus no request waiting on a
 * queue beyond {@code max-wait} (per stay on one queue), every queue drained at every unmount, and
 * every CPU online and serving after the final online.
 */
public final class ChaosRun {
  private ChaosRun() {}

  public static SeedResult run(ChaosProfile profile, long seed) {
    MachineResult r;
    try {
      r = machine(profile, seed);
    } catch (IllegalStateException e) { // a livelock or a run past its horizon: no result to check
      return new SeedResult(
          seed,
          profile.semantics(),
          0,
          0,
          0,
          0,
          0,
          List.of("no result: " + e.getMessage()),
          List.of(),
          "-",
          0);
    }
    return check(profile, seed, r);
  }

  /**
   * The same seed's machine on the real clock and real dispatchers (the chaos controller's events
   * at their real instants), unchecked: the contract test compares it with {@link #machine}.
   */
  static MachineResult machineInRealTime(ChaosProfile profile, long seed, Duration wallTimeout) {
    FioWorkload workload = profile.workload();
    List<JobPlan> plans = workload.plans(profile.machine());
    return MachineRun.runRealTime(
        "chaos-rt-" + seed,
        profile.machine(),
        plans,
        i -> workload.newStats(plans.get(i)),
        seed,
        ChaosController.perturbation(profile),
        wallTimeout);
  }

  /** The machine's own result of one seed, unchecked. */
  static MachineResult machine(ChaosProfile profile, long seed) {
    FioWorkload workload = profile.workload();
    List<JobPlan> plans = workload.plans(profile.machine());
    return MachineRun.run(
            "chaos-" + seed,
            profile.machine(),
            plans,
            i -> workload.newStats(plans.get(i)),
            seed,
            ChaosController.perturbation(profile),
            virtualNanos -> {})
        .result();
  }

  /**
   * After the final online: every core and the router's view have every CPU online and every queue
   * back in the masks, and the check job pinned to each CPU got all its I/O done without an error
   * (faults are off by then).
   */
  private static void everyCpuServesAgain(
      ChaosProfile profile, MachineResult r, List<String> violations) {
    for (CoreProtocol.CoreStats c : r.cores()) {
      if (!c.online()) {
        violations.add(
            "cpu "
                + c.cpu()
                + " is still offline after the final online (its work runs elsewhere)");
      }
    }
    if (r.router() != null) {
      r.router()
          .offlineCpus()
          .forEach(
              c ->
                  violations.add(
                      "cpu "
                          + c
                          + " is still offline in the router's view "
                          + "after the final online"));
      r.router()
          .offlineQueues()
          .forEach(
              q ->
                  violations.add(
                      "queue " + q + " is still out of the masks after the " + "final online"));
    }
    int checks = profile.machine().topology().cpuCount();
    int first = r.jobs().size() - checks;
    for (int cpu = 0; cpu < checks && first >= 0; cpu++) {
      JobStats j = r.jobs().get(first + cpu);
      long done = r.little().get(first + cpu).requests();
      if (done != profile.verifyOps() || j.totalErrors() != 0) {
        violations.add(
            "cpu "
                + cpu
                + " does not serve again after the final online: its check job ended "
                + done
                + " of "
                + profile.verifyOps()
                + " requests, "
                + j.totalErrors()
                + " with an error"
                + (j.totalErrors() > 0 ? " (first errno " + j.firstError() + ")" : ""));
      }
    }
  }

  static SeedResult check(ChaosProfile profile, long seed, MachineResult r) {
    List<String> violations = new ArrayList<>(r.violations());
    if (r.stall() != null) {
      violations.add("deadlock: " + r.stall());
    }
    for (FlowProtocol.QueueStats q : r.queues()) {
      if (q.maxWaitNanos() > profile.maxWaitNanos()) {
        violations.add(
            "queue "
                + q.queue()
                + " (cpu "
                + q.homeCpu()
                + "): a request waited "
                + Durations.format(q.maxWaitNanos())
                + " on it, more than max-wait "
                + Durations.format(profile.maxWaitNanos()));
      }
    }
    if (r.stall() == null) {
      everyCpuServesAgain(profile, r, violations);
    }
    long requests = 0;
    for (LittlesLaw l : r.little()) {
      requests += l.requests();
    }
    long errors = 0;
    for (JobStats j : r.jobs()) {
      errors += j.totalErrors();
    }
    List<String> events = r.perturbation() == null ? List.of() : r.perturbation().events();
    long hotplug = r.perturbation() == null ? 0 : r.perturbation().hotplug();
    long faults = r.perturbation() == null ? 0 : r.perturbation().faults();
    long rerouted = r.queues().stream().mapToLong(FlowProtocol.QueueStats::rerouted).sum();
    return new SeedResult(
        seed,
        profile.semantics(),
        requests,
        errors,
        hotplug,
        faults,
        rerouted,
        violations,
        events,
        r.digest(),
        r.endNanos());
  }
}
