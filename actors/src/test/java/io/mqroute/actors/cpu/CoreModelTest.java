package io.mqroute.actors.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CoreModelTest {
  private static final List<CState> SKX =
      List.of(new CState("C1", 2_000, 2_000), new CState("C1E", 10_000, 20_000), new CState("C6", 133_000, 600_000));

  @Test
  void noCostsNoStatesIsPureQueueing() {
    CoreModel m = new CoreModel(List.of(), Governor.PERFORMANCE, 0);
    assertThat(m.start(1_000, 5_000)).isEqualTo(6_000);
    m.finish(6_000);
    assertThat(m.start(6_000, 0)).isEqualTo(6_000);
  }

  @Test
  void theDeepestAllowedCStateIsPaidOnWakeUp() {
    CoreModel m = new CoreModel(SKX, Governor.PERFORMANCE, 0);
    assertThat(m.start(1_000_000, 1_000)).isEqualTo(1_000_000 + 133_000 + 1_000); // idle 1 ms: C6
    m.finish(1_134_000);
    assertThat(m.start(1_134_000 + 50_000, 1_000)).isEqualTo(1_184_000 + 10_000 + 1_000); // idle 50 us: C1E
    m.finish(1_195_000);
    assertThat(m.start(1_195_000 + 3_000, 1_000)).isEqualTo(1_198_000 + 2_000 + 1_000); // idle 3 us: C1
    assertThat(m.cstateExits()).containsExactly(1, 1, 1);
    assertThat(m.wakeups()).isEqualTo(3);
  }

  @Test
  void backToBackWorkPaysNoExitLatency() {
    CoreModel m = new CoreModel(SKX, Governor.PERFORMANCE, 0);
    long end = m.start(0, 1_000);
    assertThat(m.continueWith(end, 1_000)).isEqualTo(end + 1_000);
  }

  @Test
  void schedutilStartsSlowAndRampsUpUnderLoad() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    long t = 0;
    long first = m.start(t, 10_000) - t;
    assertThat(first).isEqualTo(25_000); // 10 us of work at 0.4 of full speed
    t += first;
    // Busy at 40% speed is a 40% load (frequency-invariant PELT), so the frequency climbs by the 1.25
    // headroom per PELT time constant: rising but below max after 100 ms, at max after 500 ms.
    while (t < 100_000_000L) {
      t = m.continueWith(t, 10_000);
    }
    assertThat(m.frequency()).isGreaterThan(0.4).isLessThan(1.0);
    while (t < 500_000_000L) {
      t = m.continueWith(t, 10_000);
    }
    m.finish(t);
    assertThat(m.frequency()).isEqualTo(1.0);
    assertThat(m.start(t, 10_000) - t).isEqualTo(10_000);
  }

  @Test
  void iowaitWakeupsBoostTheFrequencyAndOtherWakeupsDoNot() {
    CoreModel boosted = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    CoreModel plain = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    // a short piece of work every 20 us for 5 ms: a light load that alone keeps schedutil at its minimum
    for (long t = 20_000; t < 5_000_000; t += 20_000) {
      boosted.finish(boosted.start(t, 1_000, true));
      plain.finish(plain.start(t, 1_000, false));
    }
    assertThat(plain.frequency()).isEqualTo(0.4);
    assertThat(boosted.frequency()).isEqualTo(1.0); // 1/8 doubled at each 1 ms update: max after 3 updates
  }

  @Test
  void theHeadroomAppliesToTheBoostAndTheRateLimitCountsFromTheLastChange() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    // three iowait wake-ups, each past the 1 ms rate limit: the boost goes 1/8, 1/4, 1/2
    m.finish(m.start(1_000_000, 100, true));
    assertThat(m.frequency()).as("1.25 x 1/8 is below the minimum").isEqualTo(0.4);
    m.finish(m.start(2_000_000, 100, true));
    assertThat(m.frequency()).as("1.25 x 1/4, still the minimum").isEqualTo(0.4);
    m.finish(m.start(3_000_000, 100, true));
    // sugov: max(util, boost) with 25 % headroom = 1.25 x 1/2 (the boost alone would be 0.5)
    assertThat(m.frequency()).isCloseTo(0.625, org.assertj.core.api.Assertions.within(0.01));
    // no change at 3.5 ms (within the limit of the change at 3 ms) and none due at 4.2 ms without a boost:
    // the frequency stays, so the next update is not held back by an evaluation that changed nothing
    double f = m.frequency();
    m.finish(m.start(3_500_000, 100, false));
    assertThat(m.frequency()).isEqualTo(f);
  }

  @Test
  void aWakeupQueuedOnABusyCoreStillAsksForTheBoost() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    for (long t = 1_000_000; t <= 3_000_000; t += 1_000_000) {
      long end = m.start(t, 100_000);
      m.iowaitWakeup(t + 50_000); // enqueued while the core runs something else
      m.finish(end);
    }
    m.finish(m.start(4_000_000, 100));
    assertThat(m.frequency()).isGreaterThan(0.4);
  }
}
