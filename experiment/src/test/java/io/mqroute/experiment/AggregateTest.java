package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Mean and 95% confidence half-width over replications (Student's t). */
class AggregateTest {
  @Test
  void oneSampleHasNoInterval() {
    Aggregate a = Aggregate.of(List.of(5.0), x -> x);
    assertThat(a.mean()).isEqualTo(5.0);
    assertThat(a.ci95()).isNaN();
  }

  @Test
  void threeSamplesUseTWithTwoDegreesOfFreedom() {
    Aggregate a = Aggregate.of(List.of(1.0, 2.0, 3.0), x -> x);
    assertThat(a.mean()).isEqualTo(2.0);
    // sd = 1, n = 3: 4.303 / sqrt(3)
    assertThat(a.ci95()).isCloseTo(4.303 / Math.sqrt(3), within(1e-12));
  }

  @Test
  void theQuantileIsStudentsAtEveryDegreeOfFreedom() {
    assertThat(Aggregate.t975(1)).isEqualTo(12.706);
    assertThat(Aggregate.t975(30)).isEqualTo(2.042);
    // reference values of t(0.975, df) to four decimals
    assertThat(Aggregate.t975(31)).isCloseTo(2.0395, within(0.001));
    assertThat(Aggregate.t975(45)).isCloseTo(2.0141, within(0.001));
    assertThat(Aggregate.t975(60)).isCloseTo(2.0003, within(0.001));
    assertThat(Aggregate.t975(99)).isCloseTo(1.9842, within(0.001));
    assertThat(Aggregate.t975(999)).isCloseTo(1.9623, within(0.001));
    for (int df = 2; df < 2000; df++) {
      assertThat(Aggregate.t975(df))
          .as("decreasing at %d", df)
          .isLessThanOrEqualTo(Aggregate.t975(df - 1));
    }
    assertThat(Aggregate.t975(Integer.MAX_VALUE)).isCloseTo(1.960, within(1e-6));
  }
}
