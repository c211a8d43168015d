package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** fio's steadystate_deviation and steadystate_slope over a window of samples. */
class SteadyStateTest {
  private static SteadyState.Tracker tracker(boolean slope, double limit) {
    SteadyState ss = new SteadyState(SteadyState.Metric.IOPS, slope, true, limit, 4, 0, 1000);
    SteadyState.Tracker t = new SteadyState.Tracker(ss, false, 0);
    t.allocate();
    return t;
  }

  @Test
  void theDeviationIsJudgedOnceTheWindowIsFull() {
    SteadyState.Tracker t = tracker(false, 5);
    assertThat(t.deviation(1000, 0, 0)).isFalse();
    assertThat(t.deviation(1010, 0, 0)).isFalse();
    assertThat(t.deviation(990, 0, 0)).isFalse();
    // four samples: 1000, 1010, 990, 1000; mean 1000, largest deviation 1% < 5%
    assertThat(t.deviation(1000, 0, 0)).isTrue();
    assertThat(t.criterion).isEqualTo(1.0);
  }

  @Test
  void aWindowThatMovesMoreThanTheLimitIsNotSteady() {
    SteadyState.Tracker t = tracker(false, 5);
    for (long v : new long[] {1000, 1200, 800, 1000, 1100}) {
      assertThat(t.deviation(v, 0, 0)).isFalse();
    }
    // the window slides: 800, 1000, 1100 and then 1050, still more than 5% from the mean
    assertThat(t.deviation(1050, 0, 0)).isFalse();
    for (long v : new long[] {1000, 1000, 1000}) {
      t.deviation(v, 0, 0);
    }
    assertThat(t.criterion).isLessThan(5); // 1050, 1000, 1000, 1000
  }

  @Test
  void aRisingWindowHasASlopeAndAFlatOneHasNone() {
    SteadyState.Tracker rising = tracker(true, 1);
    for (long v : new long[] {1000, 1100, 1200}) {
      assertThat(rising.slope(v, 0, 0)).isFalse();
    }
    assertThat(rising.slope(1300, 0, 0)).isFalse();
    // slope 100 per interval over a mean of 1150: 8.7%
    assertThat(rising.criterion).isBetween(8.6, 8.8);
    SteadyState.Tracker flat = tracker(true, 1);
    for (int i = 0; i < 3; i++) {
      assertThat(flat.slope(1000, 0, 0)).isFalse();
    }
    assertThat(flat.slope(1000, 0, 0)).isTrue();
  }

  @Test
  void theWindowMustHoldMoreThanOneInterval() {
    assertThatThrownBy(() -> new SteadyState(SteadyState.Metric.BW, false, false, 1, 1, 0, 1000))
        .hasMessageContaining("ss_dur longer than it");
  }
}
