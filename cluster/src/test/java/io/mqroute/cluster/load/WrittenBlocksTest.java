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
    assertThat(w.ackedCount()).isEqualTo(1);
    assertThat(w.nextAcked(0)).isEqualTo(1);
    assertThat(w.startWrite(1)).isEqualTo(3);
    w.writeEnded(1, 3, false);
    assertThat(w.startRead(1)).isEqualTo(WrittenBlocks.UNKNOWN);
    assertThat(w.ackedCount()).isZero();
    assertThat(w.nextAcked(0)).isEqualTo(-1);
  }

  @Test
  void overlappingWritesLeaveTheBlockUnknownUntilOneCompletesAlone() {
    WrittenBlocks w = new WrittenBlocks(2);
    long a = w.startWrite(0);
    long b = w.startWrite(0); // the device may apply these two in either order
    w.writeEnded(0, b, true);
    w.writeEnded(0, a, true);
    assertThat(w.startRead(0)).isEqualTo(WrittenBlocks.UNKNOWN);
    assertThat(w.ackedCount()).isZero();
    long c = w.startWrite(0);
    w.writeEnded(0, c, true);
    assertThat(w.startRead(0)).isEqualTo(c);
    assertThat(w.ackedCount()).isEqualTo(1);
  }

  @Test
  void aReadDuringAWriteIsNotCheckedAndAReadCanSeeThatAWriteStartedDuringIt() {
    WrittenBlocks w = new WrittenBlocks(1);
    w.writeEnded(0, w.startWrite(0), true);
    long during = w.startWrite(0);
    assertThat(w.startRead(0)).isEqualTo(WrittenBlocks.UNCHECKED);
    w.writeEnded(0, during, true);
    long expected = w.startRead(0);
    int stamp = w.writesStarted(0);
    assertThat(expected).isEqualTo(during);
    w.startWrite(0);
    assertThat(w.writesStarted(0)).as("the read must not be checked").isNotEqualTo(stamp);
  }
}
