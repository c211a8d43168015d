package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * With every CPU cost at zero and Poisson arrivals the machine is a textbook queue, so its mean
 * sojourn time must match theory: M/M/1 and M/D/1 (Pollaczek-Khinchine) at ρ = 0.8, and M/M/4
 * (Erlang C) for one shared queue drained by four pollers; and M/D/1 with the service as the server
 * thread's CPU work on every queue kind.
 */
@Tag("integration")
class QueueingTheoryTest {
  private static final long MEAN_SERVICE = 40_000; // ns
  private static final int REQUESTS = 400_000;

  /** Poisson arrivals at {@code rate} per second, never capped by the depth. */
  private static JobPlan poisson(double rate) {
    return poisson(rate, 0, REQUESTS);
  }

  /**
   * {@code requests} Poisson arrivals at {@code rate} per second from an app thread on {@code cpu}.
   */
  private static JobPlan poisson(double rate, int cpu, int requests) {
    long runtime = (long) (requests / rate * 1e9);
    return JobPlan.of(
        0,
        "poisson",
        0,
        new int[] {cpu},
        cpu,
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

  /** What one run measured: the mean sojourn time and the queue's own queueing counters. */
  private record Measured(double sojournNanos, Queueing queueing) {}

  private static Measured measure(String queues, String device, double rate) {
    return measure(TestMachines.pureQueueing(queues, device), poisson(rate), REQUESTS);
  }

  private static Measured measure(MachineSpec spec, JobPlan plan, int requests) {
    MachineRun.Outcome o =
        MachineRun.run(
            "theory", spec, List.of(plan), i -> new JobStats(JobInfo.named("poisson")), 7);
    assertThat(o.result().violations()).isEmpty();
    assertThat(o.result().stall()).isNull();
    JobStats s = o.result().jobs().get(0);
    assertThat(s.direction(Direction.READ).totalIos()).isGreaterThan(requests * 95L / 100);
    return new Measured(
        s.direction(Direction.READ).lat().mean(), o.result().queues().get(0).queueing());
  }

  /** P(wait), ρ per server, Lq and L of the queue against theory, each within {@code tolerance}. */
  private static void assertQueueing(
      Queueing q, double pWait, double rho, double lq, double l, double tolerance) {
    assertThat(q.pWait()).as("P(wait)").isCloseTo(pWait, within(pWait * tolerance));
    assertThat(q.busyFraction()).as("busy fraction").isCloseTo(rho, within(rho * tolerance));
    assertThat(q.meanWaiting()).as("Lq").isCloseTo(lq, within(lq * tolerance));
    assertThat(q.meanInQueue()).as("L").isCloseTo(l, within(l * tolerance));
  }

  /**
   * The service as CPU work of the queue's server thread ({@code cpu(10us)}, a passthrough server
   * on the home core) is still M/D/1 when every other cost is zero: T = 10 µs × (1 + ρ / (2(1 −
   * ρ))) = 30 µs at ρ = 0.8. The zero-cost harvest, end and wake-up of one request must not wait
   * behind the next request's service on that core — whether the application runs there too (one
   * CPU) or on another CPU (two CPUs, the application on CPU 1).
   */
  @ParameterizedTest(name = "{0}, {1} CPU(s)")
  @CsvSource({
    "'kind = independent, count = 1, ring-size = 100000', 1",
    "'kind = independent, count = 1, ring-size = 100000', 2",
    "'kind = virtio, count = 1, ring-size = 100000', 1",
    "'kind = virtio, count = 1, ring-size = 100000', 2",
    "'kind = per-cpu, ring-size = 100000', 1",
    "'kind = dev-fuse, pollers = 1', 1"
  })
  void md1WithCpuServiceIsThreeServiceTimesOnEveryQueueKind(String queues, int cpus) {
    int requests = 200_000;
    Measured m =
        measure(
            TestMachines.pureQueueing(cpus, queues, "cpu(10us)"),
            poisson(0.8 / 10e-6, cpus - 1, requests),
            requests);
    assertThat(m.sojournNanos()).isCloseTo(30_000, within(30_000 * 0.02));
    assertQueueing(m.queueing(), 0.8, 0.8, 1.6, 2.4, 0.03);
  }

  /** M/M/1 at ρ = 0.8: T = 5 S, P(wait) = ρ, Lq = ρ² / (1 − ρ) = 3.2, L = ρ / (1 − ρ) = 4. */
  @Test
  void mm1AtRho08IsFiveServiceTimes() {
    Measured m =
        measure(
            "kind = independent, count = 1, ring-size = 100000", "exponential(40us)", 0.8 / 40e-6);
    assertThat(m.sojournNanos() / MEAN_SERVICE).isCloseTo(5.0, within(5.0 * 0.02));
    assertQueueing(m.queueing(), 0.8, 0.8, 3.2, 4.0, 0.03);
  }

  /** M/D/1 at ρ = 0.8 (Pollaczek-Khinchine): T = 3 S, Lq = ρ² / (2(1 − ρ)) = 1.6, L = 2.4. */
  @Test
  void md1AtRho08IsThreeServiceTimes() {
    Measured m =
        measure("kind = independent, count = 1, ring-size = 100000", "fixed(40us)", 0.8 / 40e-6);
    assertThat(m.sojournNanos() / MEAN_SERVICE).isCloseTo(3.0, within(3.0 * 0.02));
    assertQueueing(m.queueing(), 0.8, 0.8, 1.6, 2.4, 0.03);
  }

  /**
   * M/M/4 at ρ = 0.8 per server (a = 3.2): Erlang C gives P(wait) = 0.5964, Lq = P(wait) ρ / (1 −
   * ρ) = 2.386, L = Lq + a = 5.586 and T = L / λ = 1.7455 S.
   */
  @Test
  void mm4AtRho08MatchesErlangC() {
    Measured m =
        measure(
            "kind = independent, count = 1, ring-size = 100000, dispatch = \"pool(4)\"",
            "exponential(40us)",
            4 * 0.8 / 40e-6);
    assertThat(m.sojournNanos() / MEAN_SERVICE).isCloseTo(1.7455, within(1.7455 * 0.02));
    assertQueueing(m.queueing(), 0.5964, 0.8, 2.386, 5.586, 0.03);
  }
}
