package io.mqroute.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class LogRateLimitTest {
  private static final long S = 1_000_000_000L;

  @Test
  void oneLinePerKeyPerIntervalAndTheHeldOnesAreReportedWithTheNext() {
    LogRateLimit l = new LogRateLimit(10 * S, 8);
    assertThat(l.allow("a", 0)).isZero();
    assertThat(l.allow("a", 1)).isEqualTo(-1);
    assertThat(l.allow("a", 9 * S)).isEqualTo(-1);
    assertThat(l.allow("b", 9 * S)).as("another key has its own budget").isZero();
    assertThat(l.held()).isEqualTo(2);
    assertThat(l.allow("a", 10 * S)).as("two held back since the last line").isEqualTo(2);
    assertThat(l.held()).isZero();
    assertThat(l.allow("a", 10 * S + 1)).isEqualTo(-1);
  }

  @Test
  void keysPastTheMaximumShareOneSlot() {
    LogRateLimit l = new LogRateLimit(S, 2);
    assertThat(l.allow("a", 0)).isZero();
    assertThat(l.allow("b", 0)).isZero();
    assertThat(l.allow("c", 0)).isZero();
    assertThat(l.allow("d", 0)).as("c and d share the overflow slot").isEqualTo(-1);
  }

  @Test
  void refusesANonPositiveInterval() {
    assertThatThrownBy(() -> new LogRateLimit(0, 1)).isInstanceOf(IllegalArgumentException.class);
  }
}
