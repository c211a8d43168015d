package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shipped experiments with their quick profile, as CI runs them: every expectation band must hold and no
 * invariant may break (exit 0). Experiments whose bands the model does not meet yet are listed in
 * EXPERIMENTS.md and not here.
 */
class ShippedExperimentsTest {
  private static final Path EXPERIMENTS = Path.of("..", "experiments");

  @ParameterizedTest
  @ValueSource(strings = {"smoke.conf", "seed-001-full-ring.conf", "seed-004-request-order.conf",
      "policy-tour.conf", "seed-000-direct-dispatch.conf", "seed-002-numa-background.conf"})
  void holdsItsBandsWithTheQuickProfile(String file, @TempDir Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit = Main.execute(new String[] {"run", EXPERIMENTS.resolve(file).toString(), "--quick", "--brief",
        "--out", out.toString()}, new PrintWriter(stdout, true), new PrintWriter(stderr, true));
    assertThat(exit).as(file + "\n" + stdout + stderr).isZero();
    assertThat(stdout.toString()).contains("invariants: ok").contains("expectations: hold")
        .doesNotContain("FAIL ");
    assertThat(out.resolve("result.json")).exists();
  }
}
