package io.mqroute.cluster.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WrittenBlocksTest {
  @Test
  void aBlockHoldsItsLastAcknowledgedWriteAndAFailedWriteMakesItUnknown() {
    WrittenBlocks w = new WrittenBlocks(4);
    assertThat(w.startWrite(1)).isEqualTo(1);
    w.writeEnded(1, 1, true);
    assertThat(w.startWrite(1)).isEqualTo(2);
    w.writeEnded(1, 2, true);
    assertThat(w.startRead(1)).isEqualTo(2);
    w.readEnded(1);
    assertThat(w.ackedCount()).isEqualTo(1);
    assertThat(w.startWrite(1)).isEqualTo(3);
    w.writeEnded(1, 3, false);
    assertThat(w.startRead(1)).isEqualTo(WrittenBlocks.UNKNOWN);
    assertThat(w.ackedCount()).isZero();
    assertThat(w.nextAcked(0)).isEqualTo(-1);
  }

  @Test
  void busyBlocksAreSkippedWrappingAround() {
    WrittenBlocks w = new WrittenBlocks(3);
    w.startWrite(2);
    assertThat(w.free(2)).isZero();
    w.startWrite(0);
    w.startRead(1);
    assertThat(w.free(0)).isEqualTo(-1);
    w.readEnded(1);
    assertThat(w.free(2)).isEqualTo(1);
  }
}
