package io.mqroute.cluster.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.SelectStrategy;
import org.junit.jupiter.api.Test;

/** The node loop's wait: poll for the spin after the last work, then block (a fake clock). */
class SpinThenBlockTest {
  private long now = 1_000_000;

  @Test
  void pollsWithinTheSpinAfterWorkThenBlocks() throws Exception {
    SpinThenBlock s = new SpinThenBlock(20_000, () -> now);
    assertThat(s.calculateStrategy(() -> 3, false)).isEqualTo(3); // events: work, handled
    now += 5_000;
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.CONTINUE);
    now += 14_000; // 19 us after the work: still polling
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.CONTINUE);
    now += 2_000; // 21 us: blocks
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.SELECT);
  }

  @Test
  void tasksAndAWakeUpFromABlockingWaitStartANewSpin() throws Exception {
    SpinThenBlock s = new SpinThenBlock(20_000, () -> now);
    now += 50_000;
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.SELECT);
    now += 1_000_000; // woke from epoll_wait: whatever woke it was work
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(0);
    now += 10_000;
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.CONTINUE);
    now += 15_000;
    assertThat(s.calculateStrategy(() -> 0, true)).isEqualTo(0); // tasks ran: work
    now += 15_000;
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.CONTINUE);
  }

  @Test
  void zeroBlocksAtOnceAsNettysDefault() throws Exception {
    SpinThenBlock s = new SpinThenBlock(0, () -> now);
    assertThat(s.calculateStrategy(() -> 2, true)).isEqualTo(2);
    assertThat(s.calculateStrategy(() -> 0, false)).isEqualTo(SelectStrategy.SELECT);
    assertThatThrownBy(() -> SpinThenBlock.factory(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
