package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The shipped experiments with their quick profile, as CI runs them: every expectation band must
 * hold and no invariant may break (exit 0). seed-003 has one band the model does not meet
 * (EXPERIMENTS.md); its other bands still run here.
 */
@Tag("integration")
class ShippedExperimentsTest {
  private static final Path EXPERIMENTS = Path.of("..", "experiments");

  @ParameterizedTest
  @ValueSource(
      strings = {
        "smoke.conf",
        "seed-001-full-ring.conf",
        "seed-004-request-order.conf",
        "policy-tour.conf",
        "seed-000-direct-dispatch.conf",
        "seed-002-numa-background.conf",
        "real-fuse-this-vm.conf"
      })
  void holdsItsBandsWithTheQuickProfile(String file, @TempDir Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        Main.execute(
            new String[] {
              "run",
              EXPERIMENTS.resolve(file).toString(),
              "--quick",
              "--brief",
              "--out",
              out.toString()
            },
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true));
    assertThat(exit).as(file + "\n" + stdout + stderr).isZero();
    assertThat(stdout.toString())
        .contains("invariants: ok")
        .contains("expectations: hold")
        .doesNotContain("FAIL ");
    assertThat(out.resolve("result.json")).exists();
  }

  /**
   * seed-003's numjobs-8 band ("no gain at eight jobs") fails because the model's jobs do not
   * interact; the one-job gain and the no-rings bands must hold, and the failure must stay that
   * band alone (exit 3, not 1).
   */
  @Test
  void seed003FailsOnlyItsEightJobBand(@TempDir Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        Main.execute(
            new String[] {
              "run",
              EXPERIMENTS.resolve("seed-003-wake-cpu.conf").toString(),
              "--quick",
              "--brief",
              "--out",
              out.toString()
            },
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true));
    String text = stdout.toString();
    assertThat(exit).as(text + stderr).isEqualTo(3);
    assertThat(text).contains("invariants: ok");
    assertThat(text.lines().filter(l -> l.startsWith("PASS "))).hasSize(3);
    assertThat(text.lines().filter(l -> l.startsWith("FAIL ")))
        .singleElement()
        .asString()
        .startsWith("FAIL bw(wake-current, numjobs=8) <= 1.05 * bw(default, numjobs=8)");
  }
}
