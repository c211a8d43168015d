package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@link InlineIoPolicy}: page-cache fast I/O stays inline, disk-like I/O goes to the pool. */
class InlineIoPolicyTest {
  private static final long US = 1_000;
  private static final long MS = 1_000_000;

  @Test
  void pageCacheFastIoStaysInlineForever() {
    InlineIoPolicy p = new InlineIoPolicy(false);
    long now = 0;
    int punts = 0;
    for (int i = 0; i < 100_000; i++) {
      assertThat(p.inline(now)).isTrue();
      // 4 KiB in 8 µs, now and then 40 µs, and a 1 MiB copy in 400 µs
      long took = i % 1000 == 0 ? 400 * US : i % 10 == 0 ? 40 * US : 8 * US;
      punts +=
          p.took(took, FileBackend.Residency.UNKNOWN, i % 1000 == 0 ? 1 << 20 : 4096, now += took)
              ? 1
              : 0;
    }
    assertThat(punts).isZero();
  }

  @Test
  void aFewSlowReadsInAWindowSendTheQueueToThePoolForASecond() {
    InlineIoPolicy p = new InlineIoPolicy(false);
    long now = 0;
    for (int i = 0; i < InlineIoPolicy.SLOW_IN_WINDOW - 1; i++) {
      assertThat(
              p.took(
                  100 * US,
                  FileBackend.Residency.UNKNOWN,
                  4096,
                  now += 100 * US)) // an SSD's read: slow, not a stall
          .isFalse();
      assertThat(p.inline(now)).isTrue();
    }
    assertThat(p.took(100 * US, FileBackend.Residency.UNKNOWN, 4096, now += 100 * US))
        .as("to the pool now")
        .isTrue();
    assertThat(p.inline(now)).isFalse();
    assertThat(p.inline(now + InlineIoPolicy.POOL_NANOS - 1)).isFalse();
    assertThat(p.inline(now + InlineIoPolicy.POOL_NANOS)).isTrue();
  }

  @Test
  void slowReadsSpreadOverWindowsDoNotAddUp() {
    InlineIoPolicy p = new InlineIoPolicy(false);
    long now = 0;
    for (int i = 0; i < 100 * InlineIoPolicy.WINDOW; i++) {
      // one slow read in every window of fast ones: a preempted copy, not a disk
      long took = i % InlineIoPolicy.WINDOW == 0 ? 300 * US : 5 * US;
      p.took(took, FileBackend.Residency.UNKNOWN, 4096, now += took);
      assertThat(p.inline(now)).isTrue();
    }
  }

  @Test
  void oneLongStallAloneIsAPreemptionNotADisk() {
    InlineIoPolicy p = new InlineIoPolicy(false);
    long now = 5 * MS;
    assertThat(p.took(5 * MS, FileBackend.Residency.UNKNOWN, 4096, now))
        .isFalse(); // a time slice of another thread
    for (int i = 0; i < 200; i++) {
      assertThat(p.took(5 * US, FileBackend.Residency.UNKNOWN, 4096, now += 5 * US)).isFalse();
      assertThat(p.inline(now)).isTrue();
    }
  }

  @Test
  void aDiskThatStallsEveryReadSendsTheQueueToThePoolAfterAFew() {
    InlineIoPolicy p = new InlineIoPolicy(false);
    long now = 0;
    int inline = 0;
    while (p.inline(now)) {
      inline++;
      p.took(8 * MS, FileBackend.Residency.UNKNOWN, 4096, now += 8 * MS); // a seek on a disk
    }
    assertThat(inline).isEqualTo(InlineIoPolicy.SLOW_IN_WINDOW);
    assertThat(p.inline(now + InlineIoPolicy.POOL_NANOS)).isTrue();
  }

  @Test
  void aSlowReadOfCachedPagesIsNeverSlowHoweverOftenWhenThePageCacheIsAsked() {
    InlineIoPolicy p = new InlineIoPolicy(true);
    long now = 0;
    for (int i = 0; i < 100 * InlineIoPolicy.WINDOW; i++) {
      assertThat(p.inline(now)).isTrue();
      // every fourth copy 3 ms (preempted, or its vCPU taken away), all pages in the page cache
      long took = i % 4 == 0 ? 3 * MS : 5 * US;
      FileBackend.Residency seen =
          p.proving() ? FileBackend.Residency.CACHED : FileBackend.Residency.UNKNOWN;
      assertThat(p.took(took, seen, 4096, now += took)).isFalse();
    }
  }

  @Test
  void aDiskIsProvedAfterOneSuspicionWhenThePageCacheIsAsked() {
    InlineIoPolicy p = new InlineIoPolicy(true);
    long now = 0;
    int inline = 0;
    while (p.inline(now)) {
      inline++;
      // a 200 µs read from an SSD
      FileBackend.Residency seen =
          p.proving() ? FileBackend.Residency.NOT_CACHED : FileBackend.Residency.UNKNOWN;
      p.took(200 * US, seen, 4096, now += 200 * US);
    }
    assertThat(inline).isEqualTo(1 + InlineIoPolicy.SLOW_IN_WINDOW);
    assertThat(p.proving()).as("a new suspicion after the pool").isFalse();
  }

  @Test
  void missesCountEvenWhenTheyAreFast() {
    // a fast SSD answers a miss in 30 µs, under the time bound: the page cache still says disk
    InlineIoPolicy p = new InlineIoPolicy(true);
    long now = 0;
    p.took(300 * US, FileBackend.Residency.UNKNOWN, 4096, now += 300 * US);
    for (int i = 0; i < InlineIoPolicy.SLOW_IN_WINDOW - 1; i++) {
      assertThat(p.took(30 * US, FileBackend.Residency.NOT_CACHED, 4096, now += 30 * US)).isFalse();
    }
    assertThat(p.took(30 * US, FileBackend.Residency.NOT_CACHED, 4096, now += 30 * US)).isTrue();
  }

  @Test
  void askingEndsAfterAWindowOfIo() {
    InlineIoPolicy p = new InlineIoPolicy(true);
    long now = 0;
    p.took(300 * US, FileBackend.Residency.UNKNOWN, 4096, now += 300 * US);
    for (int i = 0; i < InlineIoPolicy.WINDOW; i++) {
      assertThat(p.proving()).isTrue();
      // reads asked, writes (not asked) in between
      FileBackend.Residency seen =
          i % 2 == 0 ? FileBackend.Residency.CACHED : FileBackend.Residency.UNKNOWN;
      p.took(5 * US, seen, 4096, now += 5 * US);
    }
    assertThat(p.proving()).isFalse();
  }
}
