package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {
  private static final long MS = 1_000_000L;

  /** {@code n} reads of 4 KiB with a total latency of {@code latNs} each, in a 1000 ms window. */
  private static JobStats job(String name, int n, long latNs) {
    JobStats s = new JobStats(JobInfo.named(name));
    s.openWindow(0);
    for (int i = 0; i < n; i++) {
      s.record(Direction.READ, 4096, JobStats.NO_SLAT, latNs, JobStats.OK);
    }
    s.closeWindow(1000 * MS);
    return s;
  }

  @Test
  void aConstantLatencyIsReportedExactlyAsFioDoes() {
    JobStats j = job("j", 333, 15_000);
    Summary s = Summary.of(List.of(j));
    // The histogram alone would give 15007 (the top of 15000's bucket) and a bucket mean of 15004.
    assertThat(s.meanNs()).isEqualTo(15_000.0);
    assertThat(List.of(s.p50Ns(), s.p99Ns(), s.p999Ns(), s.p9999Ns())).containsOnly(15_000L);
    assertThat(s.p999Ns()).isEqualTo(j.direction(Direction.READ).lat().valueAtPercentile(99.9));
  }

  @Test
  void jobsAreMergedWeightedByTheirCounts() {
    Summary s = Summary.of(List.of(job("a", 300, 10_000), job("b", 100, 50_000)));
    assertThat(s.meanNs()).isCloseTo((300 * 10_000.0 + 100 * 50_000.0) / 400, within(1e-9));
    assertThat(s.ios()).isEqualTo(400);
    assertThat(s.iops()).isCloseTo(400.0, within(1e-9));
    assertThat(s.p50Ns()).isBetween(10_000L, 10_010L);
    assertThat(s.p9999Ns()).isEqualTo(50_000L);
  }

  @Test
  void nothingCompletedIsAllZeros() {
    JobStats idle = new JobStats(JobInfo.named("idle"));
    idle.openWindow(0);
    idle.closeWindow(MS);
    assertThat(Summary.of(List.of(idle))).isEqualTo(new Summary(0, 0, 0, 0, 0, 0, 0, 0, 0));
  }
}
