package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bands over variants' metrics: arithmetic, comparisons, and the verdict line a user reads. */
class ExpectationTest {
  /** iops: a = 100, b = 40, c = 0; p99.9 (µs): a = 10, b = 250. */
  private static final Expectation.MetricSource VALUES =
      (metric, ref) ->
          switch (metric + ":" + ref.variant()) {
            case "iops:a" -> 100;
            case "iops:b" -> 40;
            case "iops:c" -> 0;
            case "p99.9:a" -> 10;
            case "p99.9:b" -> 250;
            default -> throw new IllegalArgumentException(metric + " " + ref);
          };

  private static Expectation.Verdict eval(String text) {
    return Expectation.parse(text).evaluate(VALUES);
  }

  @Test
  void arithmeticAndPrecedence() {
    assertThat(eval("p99.9(a) * 10 <= p99.9(b)").holds()).isTrue();
    assertThat(eval("p99.9(a) * 30 <= p99.9(b)").holds()).isFalse();
    assertThat(eval("iops(a) - iops(b) * 2 == 20").holds()).isTrue();
    assertThat(eval("(iops(a) - iops(b)) * 2 == 120").holds()).isTrue();
    assertThat(eval("iops(b) / iops(a) < 0.5").holds()).isTrue();
    assertThat(eval("iops(a) > 1e2").holds()).isFalse();
    assertThat(eval("iops(a) >= 1e2").holds()).isTrue();
  }

  @Test
  void theVerdictShowsBothSides() {
    assertThat(eval("iops(a) >= 2 * iops(b)").toString())
        .isEqualTo("PASS iops(a) >= 2 * iops(b): holds (100.0 >= 80.00)");
    assertThat(eval("iops(a) >= 3 * iops(b)").toString())
        .isEqualTo("FAIL iops(a) >= 3 * iops(b): does not hold (100.0 >= 120.0)");
  }

  @Test
  void aFailedEqualityShowsTheDigitsThatDiffer() {
    Expectation.Verdict v =
        Expectation.parse("iops(a) * 358 == iops(a) * 358 + 1").evaluate(VALUES);
    assertThat(v.holds()).isFalse();
    assertThat(v.toString()).endsWith("(35800 == 35801)");
  }

  @Test
  void aSideThatIsNotAFiniteNumberNeverHolds() {
    for (String op : new String[] {">", ">=", "<", "<=", "=="}) {
      Expectation.Verdict v = eval("iops(a) / iops(c) " + op + " 5");
      assertThat(v.holds()).as(op).isFalse();
      assertThat(v.toString()).contains("not a finite number");
    }
    assertThat(eval("iops(c) / iops(c) == iops(c) / iops(c)").holds()).as("NaN").isFalse();
  }

  @Test
  void referencesCarryTheirSweepPoint() {
    Expectation e =
        Expectation.parse(
            "bw(patched, iodepth=4, numjobs=1) >= 1.5 * bw(unpatched, iodepth=4, numjobs=1)");
    assertThat(e.refs())
        .containsExactly(
            new Expectation.Ref("patched", Map.of("iodepth", "4", "numjobs", "1")),
            new Expectation.Ref("unpatched", Map.of("iodepth", "4", "numjobs", "1")));
  }

  @Test
  void syntaxErrorsNameTheColumn() {
    assertThatThrownBy(() -> Expectation.parse("iops(a) >= "))
        .hasMessageContaining("expected a number or a metric at column 12");
    assertThatThrownBy(() -> Expectation.parse("iops(a) >= 2 2"))
        .hasMessageContaining("unexpected \"2\" at column 14");
    assertThatThrownBy(() -> Expectation.parse("iops(, x=1) > 0"))
        .hasMessageContaining("missing variant name");
    assertThatThrownBy(() -> Expectation.parse("iops(a, x) > 0"))
        .hasMessageContaining("expected key=value");
  }
}
