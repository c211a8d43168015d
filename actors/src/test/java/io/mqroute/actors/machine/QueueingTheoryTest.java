package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * With every CPU cost at zero and Poisson arrivals the machine is a textbook queue, so its mean
 * sojourn time must match theory: M/M/1 and M/D/1 (Pollaczek-Khinchine) at ρ = 0.8, and M/M/4
 * (Erlang C) for one shared queue drained by four pollers.
 */
@Tag("integration")
class QueueingTheoryTest {
  private static final long MEAN_SERVICE = 40_000; // ns
  private static final int REQUESTS = 400_000;

  /** Poisson arrivals at {@code rate} per second, never capped by the depth. */
  private static JobPlan poisson(double rate) {
    long runtime = (long) (REQUESTS / rate * 1e9);
    return new JobPlan(
        0,
        "poisson",
        0,
        new int[] {0},
        0,
        60_000,
        true,
        1.0,
        true,
        4096,
        4096,
        1L << 30,
        1,
        0,
        runtime,
        0,
        true,
        rate,
        true);
  }

  private static double meanSojournOverService(String queues, String device, double rate) {
    MachineSpec spec = TestMachines.pureQueueing(queues, device);
    MachineRun.Outcome o =
        MachineRun.run(
            "theory", spec, List.of(poisson(rate)), i -> new JobStats(JobInfo.named("poisson")), 7);
    assertThat(o.result().violations()).isEmpty();
    assertThat(o.result().stall()).isNull();
    JobStats s = o.result().jobs().get(0);
    assertThat(s.direction(Direction.READ).totalIos()).isGreaterThan(REQUESTS * 95L / 100);
    return s.direction(Direction.READ).lat().mean() / MEAN_SERVICE;
  }

  @Test
  void mm1AtRho08IsFiveServiceTimes() {
    double r =
        meanSojournOverService(
            "kind = independent, count = 1, ring-size = 100000", "exponential(40us)", 0.8 / 40e-6);
    assertThat(r).isCloseTo(5.0, within(5.0 * 0.02));
  }

  @Test
  void md1AtRho08IsThreeServiceTimes() {
    double r =
        meanSojournOverService(
            "kind = independent, count = 1, ring-size = 100000", "fixed(40us)", 0.8 / 40e-6);
    assertThat(r).isCloseTo(3.0, within(3.0 * 0.02));
  }

  @Test
  void mm4AtRho08MatchesErlangC() {
    double r =
        meanSojournOverService(
            "kind = independent, count = 1, ring-size = 100000, dispatch = \"pool(4)\"",
            "exponential(40us)",
            4 * 0.8 / 40e-6);
    assertThat(r).isCloseTo(1.7455, within(1.7455 * 0.02));
  }
}
