package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code mqroute bench --clock real}: the model's actors on real dispatchers finish every request
 * and report how much of the model's rate they sustained. Real time: bounded by --timeout, no
 * assertion on speed.
 */
@Tag("integration")
class RealTimeBenchTest {
  @Test
  void theSameMachineRunsInRealTimeAndEveryRequestEnds() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.execute(
            new String[] {
              "bench", "--clock", "real", "--requests", "800", "--warmup", "0", "--timeout", "120"
            },
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("clock:               real", "requests:            800");
    Matcher m = Pattern.compile("kept up: +([0-9.]+) of the model").matcher(out.toString());
    assertThat(m.find()).as(out.toString()).isTrue();
    assertThat(Double.parseDouble(m.group(1))).isPositive();
  }
}
