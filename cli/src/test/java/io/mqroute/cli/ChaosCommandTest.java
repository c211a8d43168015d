package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  @Test
  void quickGeneric650PrintsALinePerSeedAndTheTotal() {
    int code =
        run(
            "chaos",
            "--quick",
            "--seeds",
            "3..5",
            "--semantics",
            "hotplug-aware",
            "--parallel",
            "2");
    assertThat(code).as(err.toString()).isEqualTo(Main.OK);
    assertThat(out.toString())
        .contains("seed 3 ", "seed 4 ", "seed 5 ", "hotplug-aware", "violations: 0")
        .containsPattern("total: 3 seeds, [0-9,]+ requests");
  }

  @Test
  void aViolationPrintsTheLogWritesAReplayFileThatReproducesIt(@TempDir Path dir) throws Exception {
    Path profile = dir.resolve("broken.conf");
    Files.writeString(
        profile,
        """
        machine { numa-nodes = 1, cores-per-node = 2 }
        queues { kind = per-cpu, ring-size = 4 }
        device = "fixed(100us)"
        stall-limit = 50ms
        chaos {
          load-factor = 2
          iterations = 1
          hotplug-interval = 2ms
          ops-per-writer = 100
          events = ["at 3ms lose queue 1 count 1"]
        }
        """);
    int code =
        run("chaos", "--profile", profile.toString(), "--seeds", "7", "--out", dir.toString());
    assertThat(code).as(err.toString()).isEqualTo(Main.INVARIANT_BROKEN);
    assertThat(out.toString())
        .contains(
            "seed 7 (kernel) broke",
            "lost request(s)",
            "event log (",
            "at 3ms lose queue 1 count 1",
            "replay: mqroute chaos --replay")
        .doesNotContain("violations: 0");
    Path replay;
    try (Stream<Path> files = Files.list(dir)) {
      replay =
          files
              .filter(f -> f.getFileName().toString().startsWith("replay-"))
              .findFirst()
              .orElseThrow();
    }
    out.getBuffer().setLength(0);
    assertThat(run("chaos", "--replay", replay.toString())).isEqualTo(Main.INVARIANT_BROKEN);
    assertThat(out.toString()).contains("replay: the same", "lost request(s)");
  }

  @Test
  void badInputIsOneLineAndExitTwo() {
    assertThat(run("chaos", "--seeds", "9..3")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).contains("the range is empty");
    assertThat(run("chaos", "--semantics", "blk-mq")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).contains("kernel, hotplug-aware");
    assertThat(run("chaos", "--profile", "no-such-profile")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).contains("no such chaos profile").doesNotContain("Exception");
    assertThat(run("chaos", "--replay", "r.conf", "--seeds", "4")).isEqualTo(Main.BAD_INPUT);
    assertThat(err.toString()).contains("--seeds cannot change it");
  }
}
