package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** bssplit / bsrange sizes, fio's random distributions and the rw= offset modifiers. */
class IoPatternTest {

  @Test
  void bssplitDrawsSizesWithTheirWeights() {
    BlockSizes s = BlockSizes.split(new int[] {4096, 65536}, new double[] {90, 10});
    SplittableRandom r = new SplittableRandom(1);
    int big = 0;
    for (int i = 0; i < 100_000; i++) {
      if (s.next(r) == 65536) {
        big++;
      }
    }
    assertThat(big).isBetween(9_500, 10_500);
  }

  @Test
  void bsrangeStaysInRangeOnMultiplesOfTheMinimum() {
    BlockSizes s = BlockSizes.range(1024, 16384);
    SplittableRandom r = new SplittableRandom(2);
    boolean sawMax = false;
    for (int i = 0; i < 10_000; i++) {
      int b = s.next(r);
      assertThat(b).isBetween(1024, 16384);
      assertThat(b % 1024).isZero();
      sawMax |= b == 16384;
    }
    assertThat(sawMax).isTrue();
  }

  private static long[] histogram(OffsetDistribution d, long blocks, int draws) {
    OffsetDistribution.Sampler s = d.sampler(blocks, 4096, new SplittableRandom(3));
    long[] h = new long[(int) blocks];
    for (int i = 0; i < draws; i++) {
      h[(int) s.next()]++;
    }
    return h;
  }

  private static double topShare(long[] h, double fraction) {
    long[] sorted = h.clone();
    java.util.Arrays.sort(sorted);
    long top = 0;
    long all = 0;
    for (int i = 0; i < sorted.length; i++) {
      all += sorted[i];
      if (i >= sorted.length * (1 - fraction)) {
        top += sorted[i];
      }
    }
    return (double) top / all;
  }

  @Test
  void zipfAndParetoAreSkewedUniformIsNot() {
    assertThat(topShare(histogram(OffsetDistribution.UNIFORM, 1000, 200_000), 0.1))
        .isLessThan(0.13);
    // zipf theta 1.2 over 1000 items: the top 10% get ~85% of the draws
    assertThat(topShare(histogram(OffsetDistribution.zipf(1.2), 1000, 200_000), 0.1))
        .isGreaterThan(0.7);
    // pareto h 0.2 is fio's 80/20 rule: 80% of the draws fall in 20% of the ranks, so the hottest
    // 20% of the blocks get at least that
    assertThat(topShare(histogram(OffsetDistribution.pareto(0.2), 1000, 200_000), 0.2))
        .isGreaterThan(0.78);
  }

  @Test
  void aSequenceRepeatsItsBlocksOrStridesOnAndThenRunsOut() {
    IoPattern fixed =
        new IoPattern(
            null,
            null,
            OffsetDistribution.sequence(new long[] {2, 0, 1}, false),
            0,
            1,
            0,
            0,
            0,
            false,
            0,
            0);
    OffsetGenerator g =
        OffsetGenerator.of(0, 6 * 4096, BlockSizes.fixed(4096), fixed, new SplittableRandom(1));
    long[] got = new long[7];
    for (int i = 0; i < got.length; i++) {
      got[i] = g.next(4096) / 4096;
    }
    assertThat(got).containsExactly(2, 0, 1, 2, 0, 1, 2);
    IoPattern strided =
        new IoPattern(
            null,
            null,
            OffsetDistribution.sequence(new long[] {2, 0, 1}, true),
            0,
            1,
            0,
            0,
            0,
            false,
            0,
            0);
    g = OffsetGenerator.of(0, 6 * 4096, BlockSizes.fixed(4096), strided, new SplittableRandom(1));
    for (int i = 0; i < got.length; i++) {
      long o = g.next(4096);
      got[i] = o < 0 ? o : o / 4096;
    }
    assertThat(got).containsExactly(2, 0, 1, 5, 3, 4, -1);
  }

  private static IoPattern files(int n, long fileBytes, IoPattern.FileService s, int nr, int open) {
    return new IoPattern(
        null,
        null,
        OffsetDistribution.UNIFORM,
        0,
        1,
        0,
        0,
        0,
        false,
        0,
        0,
        n,
        fileBytes,
        s,
        nr,
        open,
        null,
        0,
        0);
  }

  private static long[] walk(JobFiles f, int n) {
    long[] got = new long[n];
    for (int i = 0; i < n; i++) {
      got[i] = f.next(4096) / 4096;
    }
    return got;
  }

  @Test
  void filesAreServedRoundRobinInTurnOrOneAfterAnother() {
    // three files of two blocks each, back to back: blocks 0-1, 2-3, 4-5
    JobFiles rr =
        JobFiles.of(
            0,
            6 * 4096,
            BlockSizes.fixed(4096),
            files(3, 8192, IoPattern.FileService.ROUNDROBIN, 1, 3),
            null,
            new SplittableRandom(1),
            true);
    assertThat(walk(rr, 8)).containsExactly(0, 2, 4, 1, 3, 5, 0, 2);
    JobFiles rr2 =
        JobFiles.of(
            0,
            6 * 4096,
            BlockSizes.fixed(4096),
            files(3, 8192, IoPattern.FileService.ROUNDROBIN, 2, 3),
            null,
            new SplittableRandom(1),
            true);
    assertThat(walk(rr2, 6)).containsExactly(0, 1, 2, 3, 4, 5);
    JobFiles seq =
        JobFiles.of(
            0,
            6 * 4096,
            BlockSizes.fixed(4096),
            files(3, 8192, IoPattern.FileService.SEQUENTIAL, 1, 3),
            null,
            new SplittableRandom(1),
            true);
    assertThat(walk(seq, 7)).containsExactly(0, 1, 2, 3, 4, 5, 0);
    // openfiles=2: the third file opens when the first is done
    JobFiles two =
        JobFiles.of(
            0,
            6 * 4096,
            BlockSizes.fixed(4096),
            files(3, 8192, IoPattern.FileService.ROUNDROBIN, 1, 2),
            null,
            new SplittableRandom(1),
            true);
    assertThat(walk(two, 7)).containsExactly(0, 2, 1, 3, 4, 5, 0);
  }

  @Test
  void randomFileServiceDrawsAmongTheOpenFiles() {
    JobFiles r =
        JobFiles.of(
            0,
            4L * 4096 * 1000,
            BlockSizes.fixed(4096),
            files(4, 4096L * 1000, IoPattern.FileService.RANDOM, 1, 4),
            new SplittableRandom(2),
            new SplittableRandom(3),
            true);
    int[] perFile = new int[4];
    for (int i = 0; i < 2000; i++) {
      perFile[(int) (r.next(4096) / (4096L * 1000))]++;
    }
    assertThat(java.util.Arrays.stream(perFile).allMatch(c -> c > 400 && c < 600))
        .as(java.util.Arrays.toString(perFile))
        .isTrue();
  }

  @Test
  void stridedZonesMoveOnByRangeAndSkipAndWrap() {
    IoPattern p =
        new IoPattern(
            null,
            null,
            OffsetDistribution.UNIFORM,
            0,
            1,
            0,
            0,
            0,
            false,
            0,
            0,
            1,
            0,
            IoPattern.FileService.ROUNDROBIN,
            1,
            1,
            new IoPattern.Stride(8192, 8192, 16384),
            0,
            0);
    // region of 10 blocks: zones at blocks 0, 6; the next (12) is past the end: wrap to 0
    OffsetGenerator g = OffsetGenerator.of(0, 10 * 4096, BlockSizes.fixed(4096), p, null, true);
    long[] got = new long[7];
    for (int i = 0; i < got.length; i++) {
      got[i] = g.next(4096) / 4096;
    }
    assertThat(got).containsExactly(0, 1, 6, 7, 0, 1, 6);
    // a zone that reaches past the region ends the offsets when the job does not go on
    OffsetGenerator end = OffsetGenerator.of(0, 7 * 4096, BlockSizes.fixed(4096), p, null, false);
    assertThat(end.next(4096)).isZero();
    assertThat(end.next(4096)).isEqualTo(4096);
    assertThat(end.next(4096)).isEqualTo(6 * 4096);
    assertThat(end.next(4096)).isEqualTo(-1);
    // zonesize above zonerange: the walk stays in the zone, going round it
    IoPattern wide =
        new IoPattern(
            null,
            null,
            OffsetDistribution.UNIFORM,
            0,
            1,
            0,
            0,
            0,
            false,
            0,
            0,
            1,
            0,
            IoPattern.FileService.ROUNDROBIN,
            1,
            1,
            new IoPattern.Stride(3 * 4096, 8192, 0),
            0,
            0);
    OffsetGenerator w = OffsetGenerator.of(0, 10 * 4096, BlockSizes.fixed(4096), wide, null, true);
    for (int i = 0; i < got.length; i++) {
      got[i] = w.next(4096) / 4096;
    }
    assertThat(got).containsExactly(0, 1, 0, 2, 3, 2, 4);
  }

  @Test
  void zonedGivesEachZoneItsShare() {
    OffsetDistribution d =
        OffsetDistribution.zoned(
            List.of(new OffsetDistribution.Zone(60, 10), new OffsetDistribution.Zone(40, 90)),
            false,
            "zoned:60/10:40/90");
    long[] h = histogram(d, 1000, 100_000);
    long first = 0;
    for (int i = 0; i < 100; i++) {
      first += h[i];
    }
    assertThat(first).isBetween(59_000L, 61_000L);
  }

  @Test
  void randomModifierGoesSequentialBetweenDraws() {
    IoPattern p = new IoPattern(null, null, OffsetDistribution.UNIFORM, 0, 4, 0, 0, 0, false, 0, 0);
    OffsetGenerator g =
        OffsetGenerator.of(0, 1L << 30, BlockSizes.fixed(4096), p, new SplittableRandom(5));
    long first = g.next(4096);
    assertThat(g.next(4096)).isEqualTo(first + 4096);
    assertThat(g.next(4096)).isEqualTo(first + 8192);
    assertThat(g.next(4096)).isEqualTo(first + 12288);
    assertThat(g.next(4096)).isNotEqualTo(first + 16384); // a new draw (all but surely elsewhere)
  }

  @Test
  void sequentialModifierLeavesHoles() {
    IoPattern p =
        new IoPattern(null, null, OffsetDistribution.UNIFORM, 4096, 1, 0, 0, 0, false, 0, 0);
    OffsetGenerator g = OffsetGenerator.of(0, 1 << 20, BlockSizes.fixed(4096), p, null);
    assertThat(new long[] {g.next(4096), g.next(4096), g.next(4096)})
        .containsExactly(0, 8192, 16384);
  }

  @Test
  void variableSizesNeverRunPastTheRegion() {
    BlockSizes s = BlockSizes.range(4096, 65536);
    OffsetGenerator g =
        OffsetGenerator.of(8192, 1 << 20, s, IoPattern.SIMPLE, new SplittableRandom(6));
    SplittableRandom r = new SplittableRandom(7);
    for (int i = 0; i < 10_000; i++) {
      int len = s.next(r);
      long off = g.next(len);
      assertThat(off).isGreaterThanOrEqualTo(8192);
      assertThat(off + len).isLessThanOrEqualTo(8192 + (1 << 20));
      assertThat(off % 4096).isZero();
    }
  }

  @Test
  void zonedWritesAppendAtWritePointersAndReadsStayBelowThem() {
    Zones z = new Zones(0, 8L << 20, 1L << 20, 2); // 8 zones of 1 MiB, 2 open
    SplittableRandom r = new SplittableRandom(8);
    java.util.Set<Long> zonesWritten = new java.util.HashSet<>();
    long[] next = new long[8];
    for (int i = 0; i < 200; i++) { // 200 x 4k: within 2 open zones until they fill
      long off = z.write(4096, r, false);
      int zone = (int) (off >> 20);
      assertThat(off & ((1 << 20) - 1)).isEqualTo(next[zone]); // at the write pointer
      next[zone] += 4096;
      zonesWritten.add((long) zone);
    }
    assertThat(zonesWritten).hasSize(2);
    for (int i = 0; i < 1000; i++) {
      long off = z.read(4096, r);
      assertThat(off & ((1 << 20) - 1)).isLessThan(next[(int) (off >> 20)]);
    }
    for (int i = 0; i < 8 * 256; i++) {
      z.write(4096, r, false); // fill every zone, then some: resets
    }
    assertThat(z.resets()).isPositive();
  }

  /**
   * Every zone open at once (max_open_zones unset) with mixed sizes: it never runs out of zones.
   */
  @Test
  void allZonesOpenWithMixedSizesKeepsWriting() {
    Zones z = new Zones(0, 1L << 30, 256L << 20, 0);
    SplittableRandom r = new SplittableRandom(0);
    for (int i = 0; i < 20_000; i++) {
      long off = z.write(i % 3 == 0 ? 8192 : 262144, r, false);
      assertThat(off).isBetween(0L, (1L << 30) - 8192);
    }
    assertThat(z.resets()).isPositive();
  }
}
