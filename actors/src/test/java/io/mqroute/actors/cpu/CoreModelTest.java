package io.mqroute.actors.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Test;

class CoreModelTest {
  private static final List<CState> SKX =
      List.of(
          new CState("C1", 2_000, 2_000),
          new CState("C1E", 10_000, 20_000),
          new CState("C6", 133_000, 600_000));

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
    assertThat(m.start(1_134_000 + 50_000, 1_000))
        .isEqualTo(1_184_000 + 10_000 + 1_000); // idle 50 us: C1E
    m.finish(1_195_000);
    assertThat(m.start(1_195_000 + 3_000, 1_000))
        .isEqualTo(1_198_000 + 2_000 + 1_000); // idle 3 us: C1
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
    // Busy at 40% speed is a 40% load (frequency-invariant PELT), so the frequency climbs by the
    // 1.25
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
    double highest = 0;
    // a short piece of work every 20 us for 5 ms: a light load that alone keeps schedutil at its
    // minimum
    for (long t = 20_000; t < 5_000_000; t += 20_000) {
      boosted.finish(boosted.start(t, 1_000, true));
      plain.finish(plain.start(t, 1_000, false));
      assertThat(plain.frequency()).isEqualTo(0.4);
      if (t <= 1_500_000) {
        highest = Math.max(highest, boosted.frequency());
      }
    }
    // 1/8, 1/4, 1/2 (0.625 with the headroom) at the first three wake-ups, then 1.0 as soon as the
    // rate limit of
    // that change has passed
    assertThat(highest).isEqualTo(1.0);
  }

  @Test
  void theHeadroomAppliesToTheBoostAndTheRateLimitCountsFromTheLastChange() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    // three iowait wake-ups within one PELT period: the boost goes 1/8, 1/4, 1/2
    m.finish(m.start(100_000, 100, true));
    assertThat(m.frequency()).as("1.25 x 1/8 is below the minimum").isEqualTo(0.4);
    m.finish(m.start(200_000, 100, true));
    assertThat(m.frequency()).as("1.25 x 1/4, still the minimum").isEqualTo(0.4);
    m.finish(m.start(300_000, 100, true));
    // sugov: max(util, boost) with 25 % headroom = 1.25 x 1/2 (the boost alone would be 0.5)
    assertThat(m.frequency()).isCloseTo(0.625, Assertions.within(0.01));
    // the next wake-up doubles the boost to 1, but the change at 300 us holds the frequency until
    // 1.3 ms
    m.finish(m.start(400_000, 100, true));
    assertThat(m.frequency()).isCloseTo(0.625, Assertions.within(0.01));
    m.finish(m.start(1_350_000, 100, true));
    assertThat(m.frequency()).isEqualTo(1.0);
  }

  @Test
  void aWakeupQueuedOnABusyCoreStillAsksForTheBoost() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    long end = m.start(0, 200_000); // 500 us at the minimum frequency
    for (long t = 100_000; t <= 300_000; t += 100_000) {
      m.iowaitWakeup(t); // enqueued while the core runs something else
    }
    m.finish(end);
    assertThat(m.frequency()).isCloseTo(0.625, Assertions.within(0.01));
  }

  @Test
  void schedutilIsAskedOncePerPeltPeriodNotAtEveryItem() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    // boost to 1/2 (frequency 0.625), then plain work every 10 us: the boost is not halved away
    // item by item
    // (cpufreq_update_util runs when update_load_avg decays, once a PELT period, and at iowait
    // enqueues)
    for (long t = 100_000; t <= 300_000; t += 100_000) {
      m.finish(m.start(t, 100, true));
    }
    for (long t = 310_000; t < 2_000_000; t += 10_000) {
      m.finish(m.start(t, 100, false));
    }
    // the rate limit of the change at 300 us ended at 1.3 ms, but the only update since (at the
    // 1.024 ms period
    // boundary) came before it: the boost stands until the next boundary
    assertThat(m.frequency()).isCloseTo(0.625, Assertions.within(0.01));
    // past the 2.048 ms boundary one update halves the boost (1/4, below the minimum with the
    // headroom)
    for (long t = 2_050_000; t < 2_100_000; t += 10_000) {
      m.finish(m.start(t, 100, false));
    }
    assertThat(m.frequency()).isEqualTo(0.4);
  }

  @Test
  void aBoostResetAfterAQuietTickStartsAgainAndOrdinaryWorkDoesNotKeepAStaleOne() {
    CoreModel m = new CoreModel(List.of(), Governor.SCHEDUTIL, 0);
    for (long t = 100_000; t <= 400_000; t += 100_000) {
      m.finish(
          m.start(
              t, 100,
              true)); // 1/8, 1/4, 1/2 (0.625 at 300 us), then 1 pending behind the rate limit
    }
    // quiet for more than a tick: sugov_iowait_reset, to 1/8 for this I/O wake-up (and pending, so
    // it applies)
    m.finish(m.start(5_000_000, 100, true));
    for (long t = 5_100_000;
        t <= 7_500_000;
        t += 100_000) { // 1/4, 1/2, 1, each held by the 1 ms rate limit
      m.finish(m.start(t, 100, true));
    }
    assertThat(m.frequency()).as("the boost builds up again").isEqualTo(1.0);
    // quiet again, then plain work: the stale boost is reset to 0 at the first update, not halved
    m.finish(m.start(60_000_000, 100, false));
    m.finish(m.start(61_100_000, 100, false));
    assertThat(m.frequency()).isEqualTo(0.4);
  }
}
