package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code mqroute bench}: a tiny run reports its rate and the runtime's work per request; bad sizes
 * are refused.
 */
class BenchCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void aSmallRunReportsTasksAndTimersPerRequest() {
    assertThat(run("bench", "--requests", "4000", "--warmup", "0")).as(err.toString()).isZero();
    assertThat(out.toString()).contains("requests:            4000", "simulated req/s:");
    Matcher m =
        Pattern.compile("per request: +([0-9.]+) run-queue tasks, ([0-9.]+) timers")
            .matcher(out.toString());
    assertThat(m.find()).as(out.toString()).isTrue();
    // a request crosses job, cores, router, queue and poller, and waits on at least the device's
    // timer
    assertThat(Double.parseDouble(m.group(1))).isGreaterThan(5);
    assertThat(Double.parseDouble(m.group(2))).isGreaterThanOrEqualTo(1);
  }

  @Test
  void tooFewRequestsIsOneLine() {
    assertThat(run("bench", "--requests", "3")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).startsWith("mqroute: ").contains("--requests must be >= 8");
  }

  @Test
  void anUnknownClockOrABadTimeoutIsOneLine() {
    assertThat(run("bench", "--clock", "wall")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).contains("--clock").contains("virtual, real");
    assertThat(run("bench", "--clock", "real", "--timeout", "0")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).contains("--timeout must be >= 1 second");
  }
}
