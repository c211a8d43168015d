package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.config.ConfigError;
import io.mqroute.workload.FioParseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The experiment format's parser: a good script gives the variants × sweep points it names; every
 * malformed one is refused with one message that names the file, the line and the key (and the
 * nearest valid name for a typo).
 */
class ExperimentParserTest {
  /** A small, valid experiment; tests replace or append lines. */
  static final String BASE =
      """
      name = t
      seed = 1
      machine { numa-nodes = 1, cores-per-node = 2 }
      queues { kind = per-cpu, ring-size = 8 }
      device = "cpu(5us)"
      workload = \"\"\"
      [global]
      ioengine=io_uring
      rw=randread
      bs=4k
      size=1g
      runtime=5ms
      time_based
      [j]
      iodepth=1
      \"\"\"
      variants = [
        { name = a, selector = static-cpu }
        { name = b, selector = round-robin }
      ]
      """;

  @TempDir Path dir;

  private Path file(String text) throws IOException {
    Path f = dir.resolve("t.conf");
    Files.writeString(f, text);
    return f;
  }

  private ExperimentSpec parse(String text) throws IOException {
    return ExperimentParser.parse(file(text), null, Map.of(), false);
  }

  private String error(String text) {
    return error(text, Map.of());
  }

  private String error(String text, Map<String, String> sets) {
    Throwable t =
        Assertions.catchThrowable(() -> ExperimentParser.parse(file(text), null, sets, false));
    assertThat(t).as("refused").isInstanceOfAny(ConfigError.class, FioParseException.class);
    assertThat(t.getMessage()).as("one line").doesNotContain("\n");
    return t.getMessage();
  }

  @Test
  void aGoodScriptGivesEveryVariantAtEverySweepPoint() throws IOException {
    ExperimentSpec s =
        parse(
            BASE
                + """
        sweep { "fio.iodepth" = [1, 4], queues.ring-size = [8, 16] }
        replications = 2
        expect = [ "iops(a, iodepth=4, ring-size=16) >= 0.5 * iops(b, iodepth=4, ring-size=16)" ]
        """);
    assertThat(s.variants())
        .extracting(Variant::id)
        .containsExactly(
            "a[iodepth=1,ring-size=8]",
            "a[iodepth=1,ring-size=16]",
            "a[iodepth=4,ring-size=8]",
            "a[iodepth=4,ring-size=16]",
            "b[iodepth=1,ring-size=8]",
            "b[iodepth=1,ring-size=16]",
            "b[iodepth=4,ring-size=8]",
            "b[iodepth=4,ring-size=16]");
    assertThat(s.replications()).isEqualTo(2);
    assertThat(s.expectations()).hasSize(1);
    assertThat(s.variants().get(3).machine().queues().ringSize()).isEqualTo(16);
  }

  @Test
  void anIncludeIsReadNextToTheFileAndAMissingOneIsAnError() throws IOException {
    Files.writeString(
        dir.resolve("machine.conf"), "machine { numa-nodes = 1, cores-per-node = 4 }\n");
    ExperimentSpec s =
        parse(
            "include \"machine.conf\"\n"
                + BASE.replace("machine { numa-nodes = 1, cores-per-node = 2 }\n", ""));
    assertThat(s.variants().get(0).machine().topology().cpuCount()).isEqualTo(4);
    assertThat(error("include \"nope.conf\"\n" + BASE))
        .contains("nope.conf: no such file (included)");
  }

  @Test
  void aBadSetKeyIsOneLine() {
    assertThat(error(BASE, Map.of("router..selector", "x")))
        .startsWith("--set router..selector: not a key path");
  }

  @Test
  void withoutVariantsThereIsOneRunCalledDefault() throws IOException {
    ExperimentSpec s = parse(BASE.substring(0, BASE.indexOf("variants")));
    assertThat(s.variants()).extracting(Variant::id).containsExactly("default");
  }

  @Test
  void anUnknownKeyNamesFileLineAndTheNearestKey() {
    assertThat(error(BASE + "foo = 3\n"))
        .startsWith(dir.resolve("t.conf") + ":21:")
        .contains("unknown key \"foo\"; did you mean \"fio\"?");
  }

  @Test
  void anUnknownSelectorSuggestsTheNearestOne() {
    assertThat(error(BASE.replace("round-robin", "reduced-v4")))
        .contains("t.conf:19:", "unknown selector \"reduced-v4\"; did you mean \"reduced-v3\"?");
  }

  @Test
  void aSelectorThatIndexesQueuesByCpuNeedsPerCpuQueues() {
    // variant a is static-cpu: qid = task_cpu means nothing for virtqueues
    assertThat(
            error(
                BASE.replace(
                    "kind = per-cpu, ring-size = 8", "kind = virtio, count = 2, ring-size = 8")))
        .contains(
            "t.conf:",
            "\"static-cpu\" takes the submitting CPU as the queue index",
            "with virtio queues use mq-map");
    assertThat(
            error(
                BASE.replace(
                        "kind = per-cpu, ring-size = 8",
                        "kind = independent, count = 2, ring-size = 8")
                    .replace(
                        "static-cpu", "hotplug-aware, selector-params { inner = reduced-v3 }")))
        .contains("\"hotplug-aware\" takes the submitting CPU", "with independent queues");
  }

  @Test
  void moreVirtqueuesThanCpusAreRefused() {
    assertThat(
            error(
                BASE.replace(
                        "kind = per-cpu, ring-size = 8", "kind = virtio, count = 4, ring-size = 8")
                    .replace("static-cpu", "mq-map")))
        .contains("queues.count", "4 virtio request queues on 2 CPUs", "virtio_fs_setup_vqs");
  }

  @Test
  void aWrongTypeNamesTheKey() {
    assertThat(error(BASE.replace("ring-size = 8", "ring-size = big")))
        .contains("t.conf:4:", "queues.ring-size: must be a whole number, got \"big\"");
  }

  @Test
  void requiredKeysAreNamed() {
    assertThat(error(BASE.replace("name = t\n", ""))).contains("name");
    String noWorkload =
        BASE.substring(0, BASE.indexOf("workload")) + BASE.substring(BASE.indexOf("variants"));
    assertThat(error(noWorkload)).contains("workload");
  }

  @Test
  void badFioTextNamesTheLineInsideTheWorkload() {
    assertThat(error(BASE.replace("iodepth=1", "iodepht=1")))
        .contains(
            "t.conf:6 (workload):10:",
            "unknown fio option \"iodepht\"",
            "did you mean \"iodepth\"?");
    assertThat(error(BASE.replace("rw=randread", "rw=randred")))
        .contains("bad value \"randred\" for rw");
  }

  @Test
  void variantsMustBeDistinctAndNotEmpty() {
    assertThat(error(BASE.replace("name = b,", "name = a,")))
        .contains("variants[1].name: two variants are named \"a\"");
    assertThat(error(BASE.substring(0, BASE.indexOf("variants")) + "variants = []\n"))
        .contains("t.conf:17:", "variants: is empty");
  }

  @Test
  void replicationsAreBounded() {
    assertThat(error(BASE + "replications = 0\n"))
        .contains("replications: must be in [1, 1000], got 0");
  }

  @Test
  void aSweepNeedsValuesAndAKeyItCanVary() {
    assertThat(error(BASE + "sweep { \"fio.iodepth\" = [] }\n"))
        .contains("t.conf:21:", "must be a non-empty list");
    assertThat(error(BASE + "sweep { colour = [1, 2] }\n"))
        .contains("t.conf:21:", "not a key a sweep can vary");
    // a typo below a machine key is found when the machine is built: reported at the sweep's own
    // line
    assertThat(error(BASE + "\n\nsweep { queues.ring-sise = [8, 16] }\n"))
        .contains(
            "t.conf:23:", "unknown key \"queues.ring-sise\"; did you mean \"queues.ring-size\"?");
  }

  @Test
  void aVariantCannotSetASweptKey() {
    assertThat(
            error(
                BASE.replace(
                        "{ name = b, selector = round-robin }",
                        "{ name = b, selector = round-robin, ring-size = 32 }")
                    + "sweep { queues.ring-size = [8, 16] }\n"))
        .contains("t.conf:19:", "queues.ring-size", "is swept [8, 16]");
    assertThat(
            error(
                BASE.replace(
                        "{ name = b, selector = round-robin }",
                        "{ name = b, selector = round-robin, fio { iodepth = 2 } }")
                    + "sweep { \"fio.iodepth\" = [1, 4] }\n"))
        .contains("is swept [1, 4]");
  }

  @Test
  void expectationsMustNameRealVariantsAndPoints() {
    String swept = BASE + "sweep { \"fio.iodepth\" = [1, 4] }\n";
    assertThat(error(swept + "expect = [ \"iops(c, iodepth=1) > 0\" ]\n"))
        .contains("t.conf:22:", "unknown variant \"c\"");
    assertThat(error(swept + "expect = [ \"iopz(a, iodepth=1) > 0\" ]\n"))
        .contains("unknown metric \"iopz\"", "at column 1");
    assertThat(error(swept + "expect = [ \"iops(a, iodepth=1) => 0\" ]\n"))
        .contains("expected one of <= >= == < >", "at column 20");
    assertThat(error(swept + "expect = [ \"iops(a, depth=1) > 0\" ]\n"))
        .contains("\"depth\" is not a swept key");
    assertThat(error(swept + "expect = [ \"iops(a, iodepth=8) > 0\" ]\n"))
        .contains("iodepth=8 is not a swept value (swept: [1, 4])");
    // leaving out a swept key would pick one point silently
    assertThat(error(swept + "expect = [ \"iops(a) > 0\" ]\n"))
        .contains("t.conf:22:", "a(...) must say which sweep point it means: add iodepth=1|4");
  }

  @Test
  void aSweepWithOneValueNeedNotBeNamed() throws IOException {
    ExperimentSpec s =
        parse(BASE + "sweep { \"fio.iodepth\" = [4] }\nexpect = [ \"iops(a) > 0\" ]\n");
    assertThat(s.expectations()).hasSize(1);
  }

  @Test
  void setsAreCheckedLikeTheFile() {
    Map<String, String> unknown = new LinkedHashMap<>();
    unknown.put("nosuch.key", "1");
    assertThat(error(BASE, unknown)).startsWith("--set nosuch.key: unknown key \"nosuch\"");
    assertThat(error(BASE, Map.of("ring-size", "big"))).contains("--set", "must be a whole number");
    assertThat(error(BASE + "sweep { \"fio.iodepth\" = [1, 4] }\n", Map.of("fio.iodepth", "2")))
        .contains("--set fio.iodepth:", "is swept [1, 4]");
  }

  @Test
  void aSetChangesTheRunAndASweepCanBeSet() throws IOException {
    ExperimentSpec s =
        ExperimentParser.parse(
            file(BASE + "sweep { \"fio.iodepth\" = [1, 4] }\n"),
            null,
            Map.of("sweep.\"fio.iodepth\"", "[2, 8, 16]", "ring-size", "32"),
            false);
    assertThat(s.variants())
        .extracting(Variant::id)
        .containsExactly(
            "a[iodepth=2]",
            "a[iodepth=8]",
            "a[iodepth=16]",
            "b[iodepth=2]",
            "b[iodepth=8]",
            "b[iodepth=16]");
    assertThat(s.variants()).allMatch(v -> v.machine().queues().ringSize() == 32);
    assertThat(List.of(s.seed())).containsExactly(1L);
  }

  @Test
  void optionsTheMachineCannotRunAreRefusedBeforeAnythingRuns() {
    assertThat(error(BASE.replace("iodepth=1", "iodepth=1\nexitall_on_error")))
        .contains("t.conf:", "exitall_on_error\" is not supported")
        .doesNotContain("\n");
    assertThat(error(BASE.replace("iodepth=1", "iodepth=1\ncpus_allowed=9")))
        .contains("cpus_allowed names CPU 9 but the machine has CPUs 0-1");
    assertThat(error(BASE, Map.of("fio.fsync", "1"))).contains("fsync=1 is not modelled");
    // accepted by the fio parser, refused by the machine's own limit: still one line, naming the
    // variant
    assertThat(error(BASE, Map.of("fio.iodepth", "65536")))
        .contains("iodepth must be in [1, 65535]")
        .endsWith("(variant a)");
  }

  @Test
  void aQuotedSetKeyIsTheSameKey() throws IOException {
    ExperimentSpec s =
        ExperimentParser.parse(file(BASE), null, Map.of("fio.\"iodepth\"", "4"), false);
    assertThat(s.sets()).containsExactly(Map.entry("fio.iodepth", "4"));
    assertThat(error(BASE + "sweep { \"fio.iodepth\" = [1, 2] }\n", Map.of("fio.\"iodepth\"", "4")))
        .contains("is swept [1, 2]");
  }

  @Test
  void aSetThatNoVariantWouldUseIsRefused() throws IOException {
    assertThat(error(BASE, Map.of("selector", "random")))
        .isEqualTo(
            "--set selector: every variant sets its own router.selector, so this value would be ignored; "
                + "change the variants instead");
    // one variant without its own selector takes it
    ExperimentSpec s =
        ExperimentParser.parse(
            file(BASE.replace("{ name = b, selector = round-robin }", "{ name = b }")),
            null,
            Map.of("selector", "random"),
            false);
    assertThat(s.variants().get(1).params()).containsEntry("router.selector", "random");
  }

  @Test
  void aMistypedSetOrSweepKeyIsNamedWhereItWasWritten() {
    assertThat(error(BASE, Map.of("fio.iodepht", "8")))
        .isEqualTo("--set fio.iodepht: unknown fio option \"iodepht\" (did you mean \"iodepth\"?)");
    assertThat(error(BASE + "sweep { \"fio.iodepht\" = [1, 2] }\n"))
        .contains("t.conf:", "sweep: ", "unknown fio option \"iodepht\"");
    assertThat(error(BASE, Map.of("queues.ringsize", "64")))
        .startsWith("--set queues.ringsize: unknown key")
        .contains("did you mean \"queues.ring-size\"?");
  }

  @Test
  void theCommandLineWinsOverTheQuickProfile() throws IOException {
    String text = BASE + "replications = 3\nquick { queues { ring-size = 16 } }\n";
    ExperimentSpec quick = ExperimentParser.parse(file(text), null, Map.of(), true);
    assertThat(quick.variants()).allMatch(v -> v.machine().queues().ringSize() == 16);
    assertThat(quick.replications()).isEqualTo(1);
    Map<String, String> sets = new LinkedHashMap<>();
    sets.put("ring-size", "32");
    sets.put("replications", "2");
    ExperimentSpec set = ExperimentParser.parse(file(text), null, sets, true);
    assertThat(set.variants()).allMatch(v -> v.machine().queues().ringSize() == 32);
    assertThat(set.replications()).isEqualTo(2);
    assertThat(
            ExperimentParser.parse(
                    file(BASE + "replications = 3\nquick { replications = 2 }\n"),
                    null,
                    Map.of(),
                    true)
                .replications())
        .isEqualTo(2);
    assertThat(ExperimentParser.parse(file(text), null, sets, false).replications()).isEqualTo(2);
  }

  @Test
  void paramsShowTheSetValuesAVariantDoesNotOverride() throws IOException {
    Map<String, String> sets = new LinkedHashMap<>();
    sets.put("ring-size", "32");
    sets.put("selector", "random");
    sets.put("replications", "2");
    ExperimentSpec s =
        ExperimentParser.parse(
            file(BASE.replace("{ name = b, selector = round-robin }", "{ name = b }")),
            null,
            sets,
            false);
    assertThat(s.sets())
        .containsExactly(
            Map.entry("queues.ring-size", "32"),
            Map.entry("router.selector", "random"),
            Map.entry("replications", "2"));
    // a names its own selector, so only the ring size comes from the command line there
    assertThat(s.variants().get(0).params())
        .containsExactly(
            Map.entry("queues.ring-size", "32"), Map.entry("router.selector", "static-cpu"));
    assertThat(s.variants().get(1).params())
        .containsExactly(
            Map.entry("queues.ring-size", "32"), Map.entry("router.selector", "random"));
  }

  @Test
  @org.junit.jupiter.api.Timeout(20)
  void aWorkloadFileMustBeARegularFileWithinTheLimit() throws IOException {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));
    // size 0 for Files.size, endless to read
    Files.createSymbolicLink(dir.resolve("zero.fio"), Path.of("/dev/zero"));
    assertThat(error(BASE + "workload = \"zero.fio\"\n"))
        .contains("workload: ")
        .contains("zero.fio")
        .endsWith("is not a regular file");
    Files.write(dir.resolve("big.fio"), new byte[(int) ExperimentParser.MAX_FILE_BYTES + 1]);
    assertThat(error(BASE + "workload = \"big.fio\"\n")).endsWith("is larger than 1 MiB");
  }
}
