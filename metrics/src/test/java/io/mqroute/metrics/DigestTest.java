package io.mqroute.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DigestTest {

  private static final long MS = 1_000_000L;

  /** A fixed, varied result set: reads with slat, writes, an error, an fsync, depth samples. */
  static List<JobStats> knownResults(int extraWrites) {
    JobStats a = new JobStats(JobInfo.named("a"));
    a.openWindow(250 * MS);
    for (int i = 1; i <= 2_000; i++) {
      a.record(Direction.READ, 4096, 300 + i % 7, 10_000L + (i * 7_919L) % 90_001, JobStats.OK);
      a.markDepth(1 + i % 40);
    }
    a.closeWindow(1_250 * MS);
    JobStats b = new JobStats(JobInfo.named("b").withGroup(1, 2));
    b.openWindow(0);
    for (int i = 1; i <= 500 + extraWrites; i++) {
      b.record(Direction.WRITE, 65_536, JobStats.NO_SLAT, 2_000_000L + i * 1_000L, JobStats.OK);
    }
    b.record(Direction.WRITE, 65_536, JobStats.NO_SLAT, 1, -22);
    b.recordSync(40_000, JobStats.OK);
    b.closeWindow(2_000 * MS);
    return List.of(a, b);
  }

  /**
   * The digest of a known input must never change: it is what makes "same seed, same digest" hold
   * across versions and JVMs. Also checked by hand on Temurin 25 with the same value. If you change
   * the canonical stream on purpose, update this value and say so in the commit.
   */
  @Test
  void knownResultsHaveAGoldenDigest() {
    assertThat(Digest.of(knownResults(0))).isEqualTo("1a4864ed16f2d90c");
  }

  @Test
  void sameResultsSameDigest() {
    assertThat(Digest.of(knownResults(0)))
        .isEqualTo(Digest.of(knownResults(0)))
        .hasSize(16)
        .matches("[0-9a-f]{16}");
  }

  @Test
  void oneMoreCompletionChangesTheDigest() {
    assertThat(Digest.of(knownResults(1))).isNotEqualTo(Digest.of(knownResults(0)));
  }

  @Test
  void jobOrderAndIdentityMatter() {
    List<JobStats> r = knownResults(0);
    assertThat(Digest.of(List.of(r.get(1), r.get(0)))).isNotEqualTo(Digest.of(r));
    JobStats renamed = new JobStats(JobInfo.named("c"));
    JobStats original = new JobStats(JobInfo.named("a"));
    assertThat(Digest.of(List.of(renamed))).isNotEqualTo(Digest.of(List.of(original)));
  }

  @Test
  void aDifferentLatencyInTheSameBucketCountChangesTheDigest() {
    JobStats x = new JobStats(JobInfo.named("x"));
    JobStats y = new JobStats(JobInfo.named("x"));
    for (JobStats s : List.of(x, y)) {
      s.openWindow(0);
    }
    x.record(Direction.READ, 4096, JobStats.NO_SLAT, 100_000, JobStats.OK);
    y.record(Direction.READ, 4096, JobStats.NO_SLAT, 100_001, JobStats.OK);
    for (JobStats s : List.of(x, y)) {
      s.closeWindow(MS);
    }
    assertThat(Digest.of(List.of(x))).isNotEqualTo(Digest.of(List.of(y)));
  }

  @Test
  void putsAreSelfDelimiting() {
    assertThat(Digest.create().putString("ab").putString("c").hex())
        .isNotEqualTo(Digest.create().putString("a").putString("bc").hex());
    assertThat(Digest.create().putInt(1).hex()).isEqualTo(Digest.create().putLong(1).hex());
    assertThat(Digest.create().putDouble(0.0).hex())
        .isNotEqualTo(Digest.create().putDouble(-0.0).hex());
  }

  @Test
  void recordingDoesNotAllocate() {
    JobStats s = new JobStats(JobInfo.named("alloc"));
    s.openWindow(0);
    s.record(Direction.READ, 4096, 100, 1_000, JobStats.OK); // creates the histograms once
    for (int warm = 0; warm < 20_000; warm++) {
      s.record(Direction.READ, 4096, 100, 1_000 + warm, JobStats.OK);
    }
    long bytes =
        AllocationProbe.allocatedBy(
            () -> {
              for (int i = 0; i < 100_000; i++) {
                s.record(
                    Direction.READ, 4096, 100 + i % 50, 1_000 + i, i % 1000 == 0 ? 5 : JobStats.OK);
                s.markDepth(i % 64);
              }
            });
    assertThat(bytes).as("bytes allocated by 100k record/markDepth calls").isLessThan(1_024);
  }
}
