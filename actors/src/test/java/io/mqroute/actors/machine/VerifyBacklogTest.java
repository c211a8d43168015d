package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** fio's check_get_verify and get_next_verify, step by step. */
class VerifyBacklogTest {

  @Test
  void aSyncJobReadsBackEachWriteRightAfterItWithABacklogOfOne() {
    VerifyBacklog b = new VerifyBacklog(1, 0);
    assertThat(b.next()).isNull(); // nothing written yet
    long[] w = b.logWrite(0, 4096);
    assertThat(b.next()).isNull(); // in flight, and the last completion (none) counts as a read
    b.completed(w);
    b.lastCompleted(false);
    assertThat(b.next()).containsExactly(0, 4096, 1);
    b.lastCompleted(true);
    assertThat(b.next()).isNull(); // history empty: the next I/O is a write
    assertThat(b.isEmpty()).isTrue();
  }

  @Test
  void everyBacklogWritesABatchIsReadBackOldestFirst() {
    VerifyBacklog b = new VerifyBacklog(4, 2);
    for (int i = 0; i < 3; i++) {
      b.completed(b.logWrite(i * 4096L, 4096));
      b.lastCompleted(false);
      assertThat(b.next()).isNull(); // 1, 2, 3 logged: not a multiple of 4
    }
    long[] inFlight = b.logWrite(3 * 4096L, 4096);
    assertThat(b.next()[0]).isZero(); // 4 logged: a batch of 2 starts
    assertThat(b.next()[0]).isEqualTo(4096);
    assertThat(b.next()).isNull(); // batch done; 2 left, not a multiple of 4
    b.completed(inFlight);
    assertThat(b.drain()[0]).isEqualTo(8192);
    assertThat(b.drain()[0]).isEqualTo(12288);
    assertThat(b.drain()).isNull();
  }

  @Test
  void aWriteInFlightIsPassedOverForACompletedOne() {
    VerifyBacklog b = new VerifyBacklog(2, 0);
    long[] first = b.logWrite(0, 4096);
    b.completed(b.logWrite(4096, 4096));
    b.lastCompleted(false);
    assertThat(b.next()[0]).isEqualTo(4096);
    assertThat(b.next()).isNull(); // the batch wants one more, but the only write is in flight
    b.completed(first);
    assertThat(b.next()[0]).isZero();
  }
}
