package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class MainTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void helpListsEveryCommand() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("run", "chaos", "node", "load", "bench");
  }

  @Test
  void anUnknownOptionIsOneLineAndExit2() {
    assertThat(run("--frobnicate")).isEqualTo(2);
    assertThat(err.toString().lines().findFirst().orElseThrow())
        .startsWith("mqroute: Unknown option: '--frobnicate'");
    assertThat(err.toString()).doesNotContain("Exception").doesNotContain("\tat ");
  }
}
