package io.mqroute.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JobStatsTest {

  private static final long MS = 1_000_000L;

  /** Records 1..n microseconds of clat (no slat) inside a window of {@code windowMs}. */
  static JobStats uniformMicros(JobInfo info, int n, long windowMs) {
    JobStats s = new JobStats(info);
    s.openWindow(0);
    for (int i = 1; i <= n; i++) {
      s.record(Direction.READ, 4096, JobStats.NO_SLAT, i * 1000L, JobStats.OK);
    }
    s.closeWindow(windowMs * MS);
    return s;
  }

  @Test
  void percentilesOfAUniformSpreadAreWithinHdrPrecision() {
    LatencyStat clat =
        uniformMicros(JobInfo.named("u"), 10_000, 1000).direction(Direction.READ).clat();
    assertThat((double) clat.valueAtPercentile(50)).isCloseTo(5_000_000, within(5_000.0));
    assertThat((double) clat.valueAtPercentile(99)).isCloseTo(9_900_000, within(9_900.0));
    assertThat((double) clat.valueAtPercentile(99.9)).isCloseTo(9_990_000, within(9_990.0));
    assertThat(clat.valueAtPercentile(100)).isEqualTo(10_000_000); // clamped to the true max
    assertThat(clat.valueAtPercentile(0.001)).isEqualTo(1_000); // clamped to the true min
  }

  @Test
  void summaryIsExact() {
    LatencyStat clat =
        uniformMicros(JobInfo.named("u"), 10_000, 1000).direction(Direction.READ).clat();
    assertThat(clat.count()).isEqualTo(10_000);
    assertThat(clat.min()).isEqualTo(1_000);
    assertThat(clat.max()).isEqualTo(10_000_000);
    assertThat(clat.mean()).isCloseTo(5_000_500.0, within(1e-6));
    // the sample standard deviation of 1..n is sqrt(n(n+1)/12)
    assertThat(clat.stddev())
        .isCloseTo(1000.0 * Math.sqrt(10_000.0 * 10_001.0 / 12.0), within(1e-3));
  }

  @Test
  void ratesFollowFioFromMillisecondsRoundedUp() {
    JobStats s = new JobStats(JobInfo.named("r"));
    s.openWindow(5 * MS);
    for (int i = 0; i < 91_463; i++) {
      s.record(Direction.READ, 4096, JobStats.NO_SLAT, 50_000, JobStats.OK);
    }
    s.closeWindow(5 * MS + 3_001 * MS + 999_999); // 3001.999999 ms: fio's update_runtime says 3002
    assertThat(s.runtimeMs(Direction.READ)).isEqualTo(3002);
    assertThat(s.runtimeMs(Direction.WRITE)).isZero();
    assertThat(s.iops(Direction.READ)).isCloseTo(1000.0 * 91_463 / 3002, within(1e-9));
    assertThat(s.bwBytes(Direction.READ)).isEqualTo(1000L * 91_463 * 4096 / 3002);
    assertThat(s.bwKiB(Direction.READ)).isEqualTo(1000L * 91_463 * 4096 / 3002 / 1024);
    assertThat(s.jobRuntimeMs()).as("job_runtime alone rounds down").isEqualTo(3001);
    assertThat(s.iops(Direction.WRITE)).isZero();
  }

  @Test
  void perDirectionRuntimeRoundsUpOnWholeMicrosecondsLikeFio() {
    JobStats s = new JobStats(JobInfo.named("sized"));
    s.openWindow(0);
    for (int i = 0; i < 300; i++) {
      s.record(Direction.READ, 4096, JobStats.NO_SLAT, 90_000, JobStats.OK);
    }
    s.closeWindow(29_877_500); // a size-based run ends between milliseconds
    assertThat(s.runtimeMs(Direction.READ)).isEqualTo(30);
    assertThat(s.iops(Direction.READ)).isEqualTo(10_000.0);
    assertThat(s.bwBytes(Direction.READ)).isEqualTo(1000L * 300 * 4096 / 30);
    assertThat(s.jobRuntimeMs()).isEqualTo(29);

    JobStats exact = new JobStats(JobInfo.named("exact"));
    exact.openWindow(0);
    exact.record(Direction.READ, 4096, JobStats.NO_SLAT, 90_000, JobStats.OK);
    exact.closeWindow(30 * MS + 999); // 30000.999 us truncates to 30000 us: exactly 30 ms
    assertThat(exact.runtimeMs(Direction.READ)).isEqualTo(30);

    JobStats merged = JobStats.merge(List.of(exact, s));
    assertThat(merged.runtimeMs(Direction.READ)).as("longest member, rounded up").isEqualTo(30);
  }

  @Test
  void aSubMillisecondWindowCountsAsOneMillisecond() {
    JobStats s = new JobStats(JobInfo.named("short"));
    s.openWindow(0);
    s.record(Direction.WRITE, 512, JobStats.NO_SLAT, 100, JobStats.OK);
    s.closeWindow(300_000);
    assertThat(s.runtimeMs(Direction.WRITE)).isEqualTo(1);
    assertThat(s.iops(Direction.WRITE)).isEqualTo(1000.0);
  }

  @Test
  void completionsOutsideTheWindowAreIgnoredAndCounted() {
    JobStats s = new JobStats(JobInfo.named("ramp"));
    s.record(Direction.READ, 4096, 10, 100, JobStats.OK); // during ramp_time
    s.openWindow(1_000 * MS);
    s.record(Direction.READ, 4096, 10, 100, JobStats.OK);
    s.closeWindow(2_000 * MS);
    s.record(Direction.READ, 4096, 10, 100, JobStats.OK); // after the end
    assertThat(s.direction(Direction.READ).totalIos()).isEqualTo(1);
    assertThat(s.ignoredOutsideWindow()).isEqualTo(2);
    assertThat(s.runtimeNs()).isEqualTo(1_000 * MS);
  }

  @Test
  void latIsSlatPlusClatAndSlatIsOptional() {
    JobStats s = new JobStats(JobInfo.named("lat"));
    s.openWindow(0);
    s.record(Direction.WRITE, 4096, 300, 700, JobStats.OK);
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 700, JobStats.OK);
    s.closeWindow(MS);
    assertThat(s.direction(Direction.WRITE).slat().count()).isEqualTo(1);
    assertThat(s.direction(Direction.WRITE).lat().max()).isEqualTo(1000);
    assertThat(s.direction(Direction.READ).slat().count()).isZero();
    assertThat(s.direction(Direction.READ).lat().max()).isEqualTo(700);
  }

  @Test
  void errorsAreCountedByErrnoAndKeptOutOfTheLatencies() {
    JobStats s = new JobStats(JobInfo.named("err"));
    s.openWindow(0);
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 100, -107); // ENOTCONN, kernel style
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 100, 22);
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 100, -22);
    s.record(Direction.READ, 4096, JobStats.NO_SLAT, 100, JobStats.OK);
    s.recordSync(5_000, 5);
    s.closeWindow(MS);
    assertThat(s.totalErrors()).isEqualTo(4);
    assertThat(s.firstError()).isEqualTo(107);
    assertThat(s.errorCounts())
        .containsExactly(Map.entry(5, 1L), Map.entry(22, 2L), Map.entry(107, 1L));
    assertThat(s.direction(Direction.READ).errors()).isEqualTo(3);
    assertThat(s.direction(Direction.READ).totalIos()).isEqualTo(1);
    assertThat(s.direction(Direction.READ).clat().count()).isEqualTo(1);
    assertThat(s.sync().count()).isZero();
    assertThatThrownBy(
            () -> {
              JobStats t = new JobStats(JobInfo.named("bad"));
              t.openWindow(0);
              t.record(Direction.READ, 1, 0, 0, 4096);
            })
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not an errno");
  }

  @Test
  void latencyBucketsFollowFioBoundaries() {
    JobStats s = new JobStats(JobInfo.named("b"));
    s.openWindow(0);
    long[] clats = {
      1, 2, 999, 1_000, 1_999, 2_000, 999_999, 1_000_000, 1_999_999_999L, 2_000_000_000L
    };
    for (long c : clats) {
      s.record(Direction.READ, 1, JobStats.NO_SLAT, c, JobStats.OK);
    }
    s.closeWindow(MS);
    long[] b = s.latencyBucketCounts();
    assertThat(b[0]).as("ns 2= holds 0..1").isEqualTo(1);
    assertThat(b[1]).as("ns 4= holds 2..3").isEqualTo(1);
    assertThat(b[9]).as("ns 1000= holds 750..999").isEqualTo(1);
    assertThat(b[10]).as("us 2= holds 1000..1999 ns").isEqualTo(2);
    assertThat(b[11]).as("us 4= holds 2..3 us").isEqualTo(1);
    assertThat(b[19]).as("us 1000= holds 750..999 us").isEqualTo(1);
    assertThat(b[20]).as("ms 2= holds 1 ms").isEqualTo(1);
    assertThat(b[30]).as("ms 2000= holds 1000..1999 ms").isEqualTo(1);
    assertThat(b[31]).as("ms >=2000=").isEqualTo(1);
  }

  @Test
  void depthDistributionIsSampledOrDerivedFromTheConfiguredDepth() {
    JobInfo deep =
        new JobInfo("d", 0, 1, "", Map.of(), PercentileList.FIO_DEFAULT, 32, false, 1024, null);
    JobStats derived = new JobStats(deep);
    assertThat(derived.depthPercentages()).containsExactly(0, 0, 0, 0, 0, 100, 0);

    JobStats sampled = new JobStats(deep);
    sampled.openWindow(0);
    for (int i = 0; i < 999; i++) {
      sampled.markDepth(32);
    }
    sampled.markDepth(1);
    sampled.closeWindow(MS);
    double[] pct = sampled.depthPercentages();
    assertThat(pct[0]).isEqualTo(0.1);
    assertThat(pct[5]).isCloseTo(99.9, within(1e-9));
  }

  @Test
  void mergeEqualsRecordingEverythingInOneJob() {
    JobInfo gr = JobInfo.named("g").withGroupReporting(true);
    JobStats a = new JobStats(gr);
    JobStats b = new JobStats(gr.withGroup(0, 2));
    JobStats all = new JobStats(gr);
    a.openWindow(0);
    b.openWindow(10 * MS);
    all.openWindow(0);
    for (int i = 1; i <= 5_000; i++) {
      long clat = 1_000L * ((i * 7919L) % 9_973 + 1);
      (i % 3 == 0 ? b : a).record(Direction.READ, 4096, 200, clat, JobStats.OK);
      all.record(Direction.READ, 4096, 200, clat, JobStats.OK);
    }
    a.closeWindow(2_000 * MS);
    b.closeWindow(2_500 * MS);
    all.closeWindow(2_000 * MS);
    JobStats merged = JobStats.merge(List.of(a, b));
    LatencyStat m = merged.direction(Direction.READ).clat();
    LatencyStat x = all.direction(Direction.READ).clat();
    assertThat(merged.members()).isEqualTo(2);
    assertThat(merged.info().name()).isEqualTo("g");
    assertThat(m.count()).isEqualTo(x.count());
    assertThat(m.min()).isEqualTo(x.min());
    assertThat(m.max()).isEqualTo(x.max());
    assertThat(m.mean()).isCloseTo(x.mean(), within(1e-6));
    assertThat(m.stddev()).isCloseTo(x.stddev(), within(1e-6));
    for (double p : PercentileList.FIO_DEFAULT.values()) {
      assertThat(m.valueAtPercentile(p)).isEqualTo(x.valueAtPercentile(p));
    }
    assertThat(merged.runtimeNs()).as("fio keeps the longest member runtime").isEqualTo(2_490 * MS);
    assertThat(merged.jobRuntimeMs()).as("fio sums job_runtime").isEqualTo(2_000 + 2_490);
    assertThat(merged.windowStartNs()).isZero();
    assertThat(merged.windowEndNs()).isEqualTo(2_500 * MS);
  }

  @Test
  void windowMisuseFailsLoudly() {
    JobStats s = new JobStats(JobInfo.named("w"));
    assertThat(s.runtimeNs()).isZero();
    assertThatThrownBy(() -> s.closeWindow(1)).isInstanceOf(IllegalStateException.class);
    s.openWindow(100);
    assertThatThrownBy(() -> s.openWindow(200)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(s::runtimeNs)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("still open");
    assertThatThrownBy(() -> s.closeWindow(50)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> s.record(Direction.READ, 1, 0, -1, 0))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void valuesAboveOneHourAreClampedInTheHistogramOnly() {
    JobStats s = new JobStats(JobInfo.named("slow"));
    s.openWindow(0);
    long twoHours = 2 * LatencyStat.HIGHEST_TRACKABLE_NS;
    s.record(Direction.READ, 1, JobStats.NO_SLAT, twoHours, JobStats.OK);
    s.closeWindow(MS);
    LatencyStat clat = s.direction(Direction.READ).clat();
    assertThat(clat.clampedCount()).isEqualTo(1);
    assertThat(clat.max()).isEqualTo(twoHours);
    assertThat(clat.histogramCopy().getTotalCount()).isEqualTo(1);
  }

  /**
   * fio's file-operation engines (FIO_FAKEIO | FIO_NOSTATS): each call is a clat sample and nothing
   * else, each fake I/O counts in IOPS and bandwidth with no latency; the text shows no lat line.
   */
  @Test
  void fileOperationCallsAreCompletionLatenciesAndTheirFakeIosCountWithoutOne() {
    JobStats s = new JobStats(JobInfo.named("stat"));
    s.openWindow(0);
    for (int i = 1; i <= 100; i++) {
      s.recordCall(Direction.READ, 300_000, JobStats.OK, i * 200_000L);
      s.recordFakeIos(Direction.READ, 2, 8192, i * 200_000L);
    }
    s.recordCall(Direction.READ, 50_000, 2, 20_100_000L); // ENOENT: an error, no sample
    s.closeWindow(20 * MS);
    DirectionStats read = s.direction(Direction.READ);
    assertThat(read.clat().count()).isEqualTo(100);
    assertThat(read.clat().mean()).isEqualTo(300_000.0);
    assertThat(read.totalIos()).isEqualTo(200);
    assertThat(read.ioBytes()).isEqualTo(100 * 8192);
    assertThat(read.lat().count()).isZero();
    assertThat(read.slat().count()).isZero();
    assertThat(s.iops(Direction.READ)).isEqualTo(10_000.0);
    assertThat(s.totalErrors()).isEqualTo(1);
    assertThat(s.firstError()).isEqualTo(2);
    assertThat(s.latencyBucketCounts()).as("fio's io_u_lat buckets: none").containsOnly(0L);
    String text = FioTextReport.render(List.of(s));
    assertThat(text)
        .contains("    clat (nsec): min=300000, max=300000, avg=300000.00")
        .doesNotContain(" lat (")
        .doesNotContain("slat");
  }

  @Test
  void trimsHaveSamplesAsReadsAndWritesDo() {
    JobStats s = new JobStats(JobInfo.named("trim"));
    s.openWindow(0);
    for (int i = 1; i <= 2000; i++) {
      s.recordAt(Direction.TRIM, 4096, JobStats.NO_SLAT, 100_000, JobStats.OK, i * 500_000L);
    }
    s.closeWindow(1_000 * MS);
    assertThat(s.bwSamples(Direction.TRIM)[4]).as("bw samples, every 500 ms").isEqualTo(2);
    assertThat(s.iopsSamples(Direction.TRIM)[2])
        .as("999 and 1001 I/Os in the two windows")
        .isEqualTo(1999.0);
  }
}
