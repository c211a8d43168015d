package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Little's law per job: holds only for a job that ended with both sides equal; a stalled job is not
 * evaluated.
 */
class LittlesLawTest {
  @Test
  void equalSidesHold() {
    LittlesLaw l = new LittlesLaw(4_000, 4_000, 2, 1_000);
    assertThat(l.holds()).isTrue();
    assertThat(l.meanInFlight()).isEqualTo(4.0);
    assertThat(l.ratePerSecond()).isEqualTo(2e6);
    assertThat(l.meanLatencyNanos()).isEqualTo(2_000.0);
    assertThat(l.toString()).endsWith(": holds");
  }

  @Test
  void unequalSidesAreBroken() {
    assertThat(new LittlesLaw(4_000, 3_999, 2, 1_000).holds()).isFalse();
    assertThat(new LittlesLaw(4_000, 3_999, 2, 1_000).toString()).endsWith(": BROKEN");
  }

  @Test
  void aJobThatDidNotEndIsNotEvaluated() {
    LittlesLaw l = LittlesLaw.notEvaluated();
    assertThat(l.evaluated()).isFalse();
    assertThat(l.holds()).isFalse();
    assertThat(l.toString()).isEqualTo("not evaluated (the job did not end)");
  }
}
