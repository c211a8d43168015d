package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.actors.machine.MemoryEstimate;
import io.mqroute.config.ConfigError;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed experiment input refused before anything runs, each as one {@link ConfigError} naming
 * file, line and key: bad UTF-8 (it used to be replaced silently), nesting the parser would
 * overflow on, and decimals in whole-number keys (which used to be truncated: ring-size = 1.5 ran
 * with a ring of 1).
 */
class ExperimentInputTest {
  @TempDir Path dir;

  private Path file(String text) throws IOException {
    return Files.writeString(dir.resolve("t.conf"), text);
  }

  private static ExperimentSpec parse(Path f, Map<String, String> sets) {
    return ExperimentParser.parse(f, null, sets, false);
  }

  @Test
  void aDecimalInAWholeNumberKeyIsRefusedNotTruncated() throws IOException {
    Path f = file(ExperimentParserTest.BASE.replace("ring-size = 8", "ring-size = 1.5"));
    assertThatThrownBy(() -> parse(f, Map.of()))
        .isInstanceOf(ConfigError.class)
        .hasMessage(f + ":4: queues.ring-size: must be a whole number, got 1.5");
    Path g = file(ExperimentParserTest.BASE.replace("numa-nodes = 1", "numa-nodes = 1.9"));
    assertThatThrownBy(() -> parse(g, Map.of()))
        .hasMessage(g + ":3: machine.numa-nodes: must be a whole number, got 1.9");
    Path h = file(ExperimentParserTest.BASE);
    assertThatThrownBy(() -> parse(h, Map.of("queues.ring-size", "2.5")))
        .hasMessageContaining("queues.ring-size: must be a whole number, got 2.5");
    assertThatThrownBy(() -> parse(h, Map.of("replications", "1.5")))
        .hasMessageContaining("replications: must be a whole number, got 1.5");
    assertThat(parse(h, Map.of()).variants().get(0).machine().queues().ringSize()).isEqualTo(8);
  }

  @Test
  void invalidUtf8IsRefusedNotReplaced() throws IOException {
    byte[] text =
        ExperimentParserTest.BASE
            .replace("name = t", "name = t\ndescription = \"caf\u00e9\"")
            .getBytes(StandardCharsets.UTF_8);
    int at = new String(text, StandardCharsets.UTF_8).indexOf('\u00e9') + 0;
    text[at + 1] = (byte) 0x41; // the second byte of é: the sequence breaks
    Path f = dir.resolve("t.conf");
    Files.write(f, text);
    assertThatThrownBy(() -> parse(f, Map.of()))
        .isInstanceOf(ConfigError.class)
        .hasMessage(f + ": invalid UTF-8 at byte " + at + " (line 2)");
    // a workload file too
    Path fio = dir.resolve("w.fio");
    Files.write(fio, new byte[] {'[', 'j', ']', '\n', (byte) 0x80, '\n'});
    Path g =
        file(
            ExperimentParserTest.BASE.substring(0, ExperimentParserTest.BASE.indexOf("workload"))
                + "workload = \"w.fio\"\n");
    assertThatThrownBy(() -> parse(g, Map.of()))
        .hasMessageContaining("workload: " + fio + " is invalid UTF-8 at byte 4 (line 2)");
  }

  @Test
  void deepNestingIsOneLineInAFileAndInASetValue() throws IOException {
    Path f = file(ExperimentParserTest.BASE + "x = " + "{a:".repeat(2000) + "}".repeat(2000));
    assertThatThrownBy(() -> parse(f, Map.of()))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith(f + ":21: nested 65 levels deep");
    Path g = file(ExperimentParserTest.BASE);
    assertThatThrownBy(
            () -> parse(g, Map.of("router.selector-params", "[".repeat(3000) + "]".repeat(3000))))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith("--set router.selector-params: nested 65 levels deep");
  }

  @Test
  void aRunBeyondTheHeapIsRefusedNamingTheFioOptionThatMakesItBig() throws IOException {
    // 4,096 clones x 65,535 in flight: 268 million requests, some 40 GiB
    Path f = file(ExperimentParserTest.BASE.replace("iodepth=1", "iodepth=65535\nnumjobs=4096"));
    assertThatThrownBy(() -> parse(f, Map.of()))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith(f + ":6: workload: iodepth: this run needs about ")
        .hasMessageContaining("268,431,360 requests in flight (iodepth x job clones)")
        .hasMessageContaining("(variant a)");
  }

  @Test
  void resultsKeptUntilTheEndLimitHowManyRunsGoAtOnce() throws IOException {
    ExperimentSpec spec =
        parse(
            file(ExperimentParserTest.BASE.replace("iodepth=1", "iodepth=1\nnumjobs=8")), Map.of());
    // per run: 8 clones with 3 histograms each (read, async) plus the group's set
    long results = 2 * (8 * 3 + 6) * MemoryEstimate.HISTOGRAM_BYTES;
    assertThat(ExperimentRunner.parallelismWithin(spec, 4, 1L << 40)).isEqualTo(4);
    long machine = MemoryEstimate.of(spec.variants().get(0).machine()).runBytes();
    int fit = ExperimentRunner.parallelismWithin(spec, 4, results + 3 * machine);
    assertThat(fit).isBetween(1, 3);
    assertThatThrownBy(() -> ExperimentRunner.parallelismWithin(spec, 4, results))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("the results of its 2 runs (variants x sweep points x replications)");
  }
}
