package io.mqroute.policies.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StrategiesTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
        delayed-retry          | 1000000    | delayed-retry(1ms)
        delayed-retry(1ms)     | 1000000    | delayed-retry(1ms)
        delayed-retry( 500us ) | 500000     | delayed-retry(500us)
        delayed-retry(40µs)    | 40000      | delayed-retry(40us)
        delayed-retry(2s)      | 2000000000 | delayed-retry(2s)
        delayed-retry(1.5ms)   | 1500000    | delayed-retry(1500us)
        delayed-retry(250ns)   | 250        | delayed-retry(250ns)
        refill-on-completion   | -1         | refill-on-completion
        """)
  void parsesFullRingSpecs(String spec, long delay, String canonical) {
    FullRingStrategy s = Strategies.fullRing(spec);
    assertThat(s.retryDelayNanos()).isEqualTo(delay);
    assertThat(s.refillsOnCompletion()).isEqualTo(delay < 0);
    assertThat(s.spec()).isEqualTo(canonical);
    assertThat(Strategies.fullRing(s.spec()).spec()).isEqualTo(canonical);
  }

  @Test
  void fullRingErrorsNameTheProblem() {
    assertThatThrownBy(() -> Strategies.fullRing("delayed-retry(1 parsec)"))
        .hasMessage(
            "delayed-retry delay must be a duration like 40us, 1ms or 2s, got \"1 parsec\"");
    assertThatThrownBy(() -> Strategies.fullRing("delayed-retry(0ms)"))
        .hasMessage("delayed-retry delay must be > 0, got 0ns");
    assertThatThrownBy(() -> Strategies.fullRing("delayed-retry(0.5ns)"))
        .hasMessageStartingWith("delayed-retry delay must be a whole number of nanoseconds");
    assertThatThrownBy(() -> Strategies.fullRing("refill-on-completion(1ms)"))
        .hasMessage("full-ring \"refill-on-completion\" takes no argument, got \"1ms\"");
    assertThatThrownBy(() -> Strategies.fullRing("delayed-retyr"))
        .hasMessage(
            "unknown full-ring strategy \"delayed-retyr\"; did you mean \"delayed-retry\"? "
                + "(valid: delayed-retry, refill-on-completion)");
    assertThatThrownBy(() -> Strategies.fullRing("delayed-retry(1ms"))
        .hasMessageContaining("must look like name or name(arg)");
  }

  @Test
  void parsesTheOtherFamilies() {
    assertThat(Strategies.enqueueError("fail")).isEqualTo(EnqueueErrorPolicy.FAIL);
    assertThat(Strategies.enqueueError("requeue").requeueOnNoMemory()).isTrue();
    assertThat(Strategies.dispatchOrder("fifo")).isSameAs(DispatchOrder.fifo());
    assertThat(Strategies.dispatchOrder("lifo-per-batch")).isSameAs(DispatchOrder.lifoPerBatch());
    assertThat(Strategies.dispatchOrder("pool(64)").concurrency()).isEqualTo(64);
    assertThat(Strategies.wake("completing-cpu")).isEqualTo(WakePolicy.COMPLETING_CPU);
    assertThat(Strategies.wake("waiter-cpu")).isEqualTo(WakePolicy.WAITER_CPU);
    BackgroundAdmission a = Strategies.backgroundAdmission("per-queue(16)", 8);
    assertThat(a.mode()).isEqualTo(BackgroundAdmission.Mode.PER_QUEUE);
    assertThat(a.maxBackground()).isEqualTo(16);
    assertThat(a.congestionThreshold()).isEqualTo(12);
    assertThat(Strategies.backgroundAdmission("global", 1).maxBackground()).isEqualTo(12);
  }

  @Test
  void otherFamiliesRejectBadSpecs() {
    assertThatThrownBy(() -> Strategies.enqueueError("requeu"))
        .hasMessage(
            "unknown enqueue-error policy \"requeu\"; did you mean \"requeue\"? (valid: fail, requeue)");
    assertThatThrownBy(() -> Strategies.dispatchOrder("pool"))
        .hasMessage(
            "dispatch \"pool\" needs a worker count, e.g. pool(4) (pool workers must be in [1, 65536])");
    assertThatThrownBy(() -> Strategies.dispatchOrder("pool(0)"))
        .hasMessage("dispatch pool: workers must be in [1, 65536], got 0");
    assertThatThrownBy(() -> Strategies.dispatchOrder("lifo"))
        .hasMessageContaining("did you mean \"fifo\"?");
    assertThatThrownBy(() -> Strategies.wake("current-cpu"))
        .hasMessageContaining("(valid: waiter-cpu, completing-cpu)");
    assertThatThrownBy(() -> Strategies.backgroundAdmission("global(0)", 1))
        .hasMessage("background admission: max-background must be in [1, 65535], got 0");
  }

  @Test
  void durationsFormatExactly() {
    assertThat(Durations.format(1_000_000)).isEqualTo("1ms");
    assertThat(Durations.format(1_500)).isEqualTo("1500ns");
    assertThat(Durations.format(0)).isEqualTo("0ns");
    assertThat(Durations.parseNanos("d", "3 s")).isEqualTo(3_000_000_000L);
  }
}
