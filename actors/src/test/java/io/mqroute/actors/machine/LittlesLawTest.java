package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.DirectionStats;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Little's law per job over its measurement window: L from the job's iodepth slots against λ × W
 * from the report (fio's completions and mean latency), apart by exactly the requests that cross
 * the window's edges. A report that disagrees with the job's slots breaks it.
 */
class LittlesLawTest {
  @Test
  void sidesThatDifferByTheEdgesHold() {
    // 2 completions in a 1 us window with 3.9 us of latency; 0.1 us of in-flight time belongs to
    // requests crossing the edges
    LittlesLaw l = new LittlesLaw(5, 1_000, 4_000, 2, 3_900, 100);
    assertThat(l.holds()).isTrue();
    assertThat(l.meanInFlight()).isEqualTo(4.0);
    assertThat(l.ratePerSecond()).isEqualTo(2e6);
    assertThat(l.meanLatencyNanos()).isEqualTo(1_950.0);
    assertThat(l.lambdaW()).isEqualTo(3.9);
    assertThat(l.edgeInFlight()).isEqualTo(0.1);
    assertThat(l.toString()).endsWith("edges +0.100: holds");
  }

  @Test
  void aReportThatMissesACompletionOrTheEdgesIsBroken() {
    assertThat(new LittlesLaw(5, 1_000_000, 4_000_000, 2, 3_900_000 - 2_000, 100).holds())
        .isFalse();
    LittlesLaw noEdges = new LittlesLaw(5, 1_000_000, 4_000_000, 2, 3_900_000, 0);
    assertThat(noEdges.holds()).as("L = λW without the edges' 0.1 us").isFalse();
    assertThat(noEdges.toString()).endsWith(": BROKEN");
  }

  @Test
  void aJobThatDidNotEndIsNotEvaluated() {
    LittlesLaw l = LittlesLaw.notEvaluated();
    assertThat(l.evaluated()).isFalse();
    assertThat(l.holds()).isFalse();
    assertThat(l.toString()).isEqualTo("not evaluated (the job did not end)");
  }

  @Test
  void replicationsPoolTheirSums() {
    LittlesLaw a = new LittlesLaw(5, 1_000, 4_000, 2, 3_900, 100);
    LittlesLaw b = new LittlesLaw(7, 3_000, 6_000, 3, 5_800, 200);
    LittlesLaw both = a.plus(b);
    assertThat(both.holds()).isTrue();
    assertThat(both.meanInFlight()).isEqualTo(2.5);
    assertThat(both.requests()).isEqualTo(12);
    assertThat(a.plus(LittlesLaw.notEvaluated())).isEqualTo(a);
  }

  /**
   * A real run with ramp_time: requests in flight at both edges of the window, and a submission
   * cost that makes slat a large part of the latency. The law holds with the edges, not without
   * them; and the same run's numbers with a broken account — latency measured from dispatch (clat
   * for lat), one completion missing from the report — fail it.
   */
  @Test
  void aRunHoldsAndTheSameRunWithABrokenAccountDoesNot() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none,"
                + " submit-cost = 20us } }\n"
                + "queues { kind = independent, count = 1, ring-size = 4 }\n"
                + "router { selector = single }\n"
                + "device = \"exponential(30us)\"\n");
    JobPlan job =
        JobPlan.of(
            0,
            "window",
            0,
            new int[] {1},
            1,
            8,
            false,
            1.0,
            true,
            4096,
            4096,
            1L << 30,
            1,
            0,
            10_000_000L,
            2_000_000L,
            true,
            0,
            false);
    MachineResult r =
        MachineRun.run("little", spec, List.of(job), i -> new JobStats(JobInfo.named("w")), 11)
            .result();
    assertThat(r.healthy()).isTrue();
    LittlesLaw l = r.little().get(0);
    assertThat(l.holds()).as("%s", l).isTrue();
    assertThat(l.spanNanos()).isEqualTo(10_000_000L);
    assertThat(l.edgeArea()).as("requests cross the edges").isNotZero();
    assertThat(Math.abs(l.inFlightArea() - l.latencySum()))
        .as("L = λW alone would fail")
        .isGreaterThan(
            LittlesLaw.RELATIVE_TOLERANCE * l.latencySum() + LittlesLaw.ABSOLUTE_TOLERANCE);
    assertThat(l.meanInFlight()).isCloseTo(l.lambdaW() + l.edgeInFlight(), within(1e-6));

    DirectionStats read = r.jobs().get(0).direction(Direction.READ);
    assertThat(read.slat().mean()).as("slat matters here").isGreaterThan(10_000);
    LittlesLaw fromDispatch =
        new LittlesLaw(
            l.requests(),
            l.spanNanos(),
            l.inFlightArea(),
            l.windowRequests(),
            read.totalIos() * read.clat().mean(),
            l.edgeArea());
    assertThat(fromDispatch.holds()).as("latency from dispatch: %s", fromDispatch).isFalse();
    LittlesLaw oneLost =
        new LittlesLaw(
            l.requests(),
            l.spanNanos(),
            l.inFlightArea(),
            l.windowRequests() - 1,
            l.latencySum() - read.lat().mean(),
            l.edgeArea());
    assertThat(oneLost.holds()).as("a completion missing: %s", oneLost).isFalse();
  }
}
