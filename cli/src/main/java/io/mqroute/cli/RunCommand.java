package io.mqroute.cli;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MemoryEstimate;
import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.config.BoundedFiles;
import io.mqroute.config.ConfigError;
import io.mqroute.config.UserError;
import io.mqroute.experiment.ComparisonTable;
import io.mqroute.experiment.Expectation;
import io.mqroute.experiment.ExperimentParser;
import io.mqroute.experiment.ExperimentResult;
import io.mqroute.experiment.ExperimentRunner;
import io.mqroute.experiment.ExperimentSpec;
import io.mqroute.experiment.FioOutput;
import io.mqroute.experiment.MachineReport;
import io.mqroute.experiment.Variant;
import io.mqroute.experiment.VariantResult;
import io.mqroute.experiment.report.ResultFiles;
import io.mqroute.experiment.report.RunProgress;
import io.mqroute.runtime.RunStats;
import io.mqroute.workload.FioParseException;
import io.mqroute.workload.FioWorkload;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description =
        "Run a policy experiment (HOCON) in deterministic virtual time: fio-style output per "
            + "variant, a comparison table, the expectation verdicts and the digest. Exit 0: every expectation "
            + "holds; 3: an expectation failed; 2: bad input; 1: an invariant broke.")
final class RunCommand implements Callable<Integer> {
  /** The longest description `--list` prints. */
  static final int LIST_WIDTH = 120;

  @Parameters(
      index = "0",
      arity = "0..1",
      paramLabel = "FILE",
      description =
          "The experiment script (.conf), or an fio job file (.fio): run as an experiment of"
              + " every default with that workload.")
  Path file;

  @Option(names = "--seed", paramLabel = "N", description = "Replace the experiment's seed.")
  Long seed;

  @Option(
      names = "--set",
      paramLabel = "KEY=VALUE",
      description =
          "Override a key of the experiment "
              + "(repeatable), e.g. --set queues.ring-size=256 or --set fio.iodepth=8; wins over --quick's profile.")
  Map<String, String> sets = new LinkedHashMap<>();

  @Option(
      names = "--parallel",
      paramLabel = "N",
      description =
          "Runs at once (default: the number of " + "processors). Results do not depend on it.")
  Integer parallel;

  @Option(
      names = "--quick",
      description =
          "Apply the experiment's quick profile (short runs, one "
              + "replication unless the profile names more): what CI runs.")
  boolean quick;

  @Option(
      names = "--brief",
      description = "Only the comparison table, the verdicts and the digest.")
  boolean brief;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description =
          "Where result.json, <variant>.fio.json, "
              + "results.csv and the plots go (default: results/<name>/<yyyyMMdd-HHmmss>/, UTC).")
  Path outDir;

  @Option(
      names = "--output-format",
      paramLabel = "LIST",
      description =
          "What each variant prints, like fio's --output-format: normal (fio's text, the default),"
              + " json, json+ (with latency bins; <variant>.fio.json is json+ too) or terse;"
              + " several separated by commas.")
  String outputFormat = "normal";

  @Option(
      names = "--cluster",
      paramLabel = "HOST:PORT,...",
      description =
          "Hand the runs to the workers (mqroute node --role worker) of the cluster of these seed"
              + " nodes instead of running them here; the same files and digest as a local run.")
  String cluster;

  @Mixin TransportOptions transport;

  @Option(
      names = "--wait",
      paramLabel = "SECONDS",
      description =
          "With --cluster: how long the sweep waits with no worker (default ${DEFAULT-VALUE}).",
      defaultValue = "30")
  int waitSeconds;

  @Option(
      names = "--management-port",
      paramLabel = "P",
      description =
          "With --cluster: serve /status on 127.0.0.1:P while the sweep runs (runs done, in flight,"
              + " per worker; 0: any free port).",
      defaultValue = "-1")
  int managementPort;

  @Option(
      names = "--list",
      description = "List the experiments in DIR (default: experiments/) and exit.")
  boolean list;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (list) {
      return listExperiments(out, file != null ? file : Path.of("experiments"));
    }
    if (file == null) {
      throw new UserError("missing experiment FILE (try 'mqroute run --list')");
    }
    List<String> formats = List.of(outputFormat.split(",", -1));
    for (String f : formats) {
      if (!List.of("normal", "json", "json+", "terse").contains(f)) {
        throw new UserError(
            "--output-format: \""
                + f
                + "\" is not one of normal, json, json+, terse (fio's names; a comma list)");
      }
    }
    ResultFiles.jsonPlus(formats.contains("json+"));
    ExperimentSpec exp;
    if (seed != null && (seed < 0 || seed > Integer.MAX_VALUE)) {
      throw new UserError(
          "--seed must be in 0.." + Integer.MAX_VALUE + " (like the file's seed), was " + seed);
    }
    if (waitSeconds < 1 || waitSeconds > 86_400) {
      throw new UserError("--wait: give 1..86400 seconds, was " + waitSeconds);
    }
    if (cluster == null && (transport.keys != null || transport.plainTcp || managementPort >= 0)) {
      throw new UserError("--keys, --plain-tcp and --management-port are for --cluster");
    }
    // with --cluster, the files the parse reads are what each worker gets to parse
    Map<Path, byte[]> read = new LinkedHashMap<>();
    try {
      exp = BoundedFiles.recording(read, () -> ExperimentParser.parse(file, seed, sets, quick));
    } catch (ConfigError | FioParseException e) {
      throw new UserError(e.getMessage());
    }
    List<String> seeds = List.of();
    List<byte[]> orders = List.of();
    if (cluster != null) {
      try {
        seeds = NodeSettings.parseSeeds(cluster);
      } catch (NodeConfigException e) {
        throw new UserError(e.getMessage().replace("--seeds", "--cluster"));
      }
      if (seeds.isEmpty()) {
        throw new UserError("--cluster: give at least one host:port");
      }
      orders = ClusterSweep.orders(exp, read, new ClusterSweep.Parse(file, seed, sets, quick));
    }
    // fio options the model records without an effect, capped depths: one line each, on stderr
    Set<String> notes = new LinkedHashSet<>();
    for (Variant v : exp.variants()) {
      if (v.workload() instanceof FioWorkload fw) {
        notes.addAll(fw.notes());
      }
    }
    // on stdout, with the run's report: a healthy run says nothing on stderr
    notes.forEach(n -> out.println("# " + n));
    int par = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
    if (par < 1) {
      throw new UserError("--parallel must be >= 1, was " + par);
    }
    int fit;
    try { // finished runs keep their results: what fits the heap besides them
      fit =
          ExperimentRunner.parallelismWithin(
              exp, cluster != null ? 1 : par, MemoryEstimate.budget());
    } catch (ConfigError e) {
      throw new UserError(e.getMessage());
    }
    if (cluster == null && fit < par) {
      spec.commandLine()
          .getErr()
          .println(
              "mqroute: "
                  + fit
                  + " run(s) at once instead of "
                  + par
                  + ": more would not fit the heap ("
                  + MemoryEstimate.bytes(MemoryEstimate.budget())
                  + " to spare)");
      par = fit;
    }
    // Before the run: an unusable directory is reported now, not after minutes of simulation.
    ResultFiles files = ResultFiles.create(outDir, exp.name(), Instant.now());
    out.printf(
        "# %s: %d run(s) (%d variant x point, %d replication(s)), seed %d%s%n",
        exp.name(),
        exp.variants().size() * exp.replications(),
        exp.variants().size(),
        exp.replications(),
        exp.seed(),
        exp.quick() ? ", quick profile" : "");
    if (!exp.description().isBlank()) { // a description line is echoed up to LIST_WIDTH x 2
      exp.description()
          .strip()
          .lines()
          .map(l -> l.length() <= 2 * LIST_WIDTH ? l : l.substring(0, 2 * LIST_WIDTH - 3) + "...")
          .forEach(l -> out.println("# " + l));
    }
    out.flush();
    ExperimentResult result;
    if (cluster != null) {
      result = runOnCluster(exp, seeds, orders);
      if (result == null) {
        return Main.INVARIANT_BROKEN;
      }
    } else {
      try (RunProgress progress =
          RunProgress.open(exp.name(), exp.variants().size(), spec.commandLine().getErr())) {
        result = ExperimentRunner.run(exp, par, progress, progress);
      } catch (MachineRun.NoResult e) {
        // past the cap of simulated time (size-based jobs): the input; a livelock: the run broke
        if (e.reason() == RunStats.StopReason.HORIZON) {
          throw new UserError(e.getMessage());
        }
        spec.commandLine().getErr().println("mqroute: " + e.getMessage());
        return Main.INVARIANT_BROKEN;
      }
    }
    for (VariantResult r : result.variants()) {
      if (!brief) {
        out.printf(
            "%n=== %s %s%s%n",
            r.variant().id(),
            r.variant().params(),
            r.replications() == 1
                ? ""
                : String.format(
                    Locale.ROOT,
                    " (replication 1 of %d, seed %d; the table below has the means)",
                    r.replications(),
                    exp.seed()));
        for (String f : formats) {
          switch (f) {
            case "json" -> out.print(FioOutput.render(r, ResultFiles.version(), false));
            case "json+" -> out.print(FioOutput.render(r, ResultFiles.version(), true));
            case "terse" -> out.print(FioOutput.terse(r, ResultFiles.version()));
            default -> {
              out.print(FioOutput.text(r, "virtual t=" + seconds(r.result().endNanos())));
              out.print(MachineReport.render(r));
            }
          }
        }
      }
      for (int i = 0; i < r.all().size(); i++) {
        MachineResult rep = r.all().get(i);
        String which =
            r.variant().id() + (r.all().size() > 1 ? " (seed " + (exp.seed() + i) + ")" : "");
        if (rep.stall() != null) {
          out.println(
              (r.variant().expectStall() ? "STALL (expected) in " : "STALL in ")
                  + which
                  + ": "
                  + rep.stall());
        }
        rep.violations().forEach(v -> out.println("VIOLATION in " + which + ": " + v));
      }
    }
    out.println();
    out.print(ComparisonTable.render(result.variants()));
    out.println();
    for (Expectation.Verdict v : result.verdicts()) {
      out.println(v);
    }
    for (VariantResult r : result.variants()) {
      if (r.variant().expectStall()) {
        out.println(
            (r.stalled() ? "PASS " : "FAIL ")
                + r.variant().id()
                + " is expected to stall: "
                + (r.stalled() ? "it did" : "it did not"));
      }
    }
    out.println("invariants: " + (result.healthy() ? "ok" : "BROKEN"));
    out.println("expectations: " + (result.expectationsHold() ? "hold" : "FAILED"));
    out.println("digest: " + result.digest());
    files.write(result);
    out.println("results: " + files.dir());
    out.flush();
    if (!result.healthy()) {
      return Main.INVARIANT_BROKEN;
    }
    return result.expectationsHold() ? Main.OK : Main.EXPECTATION_FAILED;
  }

  /**
   * The runs done by the cluster's workers, from a client node that joins for the sweep and leaves
   * after it; null when a run failed (said on stderr).
   */
  private ExperimentResult runOnCluster(
      ExperimentSpec exp, List<String> seeds, List<byte[]> orders) {
    ClusterLogging.quietPeerDisconnects();
    ClusterNode.Started client = transport.startClient(0, seeds, managementPort);
    if (client.managementUri() != null) {
      spec.commandLine()
          .getErr()
          .println("mqroute: the sweep's progress at " + client.managementUri() + "/status");
    }
    try {
      List<List<ExperimentRunner.Run>> runs =
          ClusterSweep.run(
              client.system(),
              exp,
              orders,
              Duration.ofSeconds(waitSeconds),
              spec.commandLine().getErr());
      return runs == null ? null : ExperimentRunner.assemble(exp, runs, r -> {});
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted");
    } finally {
      TransportOptions.stopClient(client);
    }
  }

  private static int listExperiments(PrintWriter out, Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new UserError(
          dir
              + ": not a directory (run from the repository's root, or name the directory: "
              + "mqroute run --list DIR)");
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<Path> confs = files.filter(p -> p.toString().endsWith(".conf")).sorted().toList();
      int width = confs.stream().mapToInt(p -> p.toString().length()).max().orElse(0);
      for (Path p : confs) {
        String what;
        try {
          what = firstSentence(ExperimentParser.parse(p, null, Map.of(), false).description());
        } catch (ConfigError | FioParseException e) {
          what = "(does not parse: " + e.getMessage() + ")";
        }
        out.println(
            String.format(Locale.ROOT, "%-" + Math.max(1, width) + "s  %s", p, what)
                .stripTrailing());
      }
    } catch (IOException e) {
      throw new UserError(dir + ": cannot list (" + e.getMessage() + ")");
    }
    return Main.OK;
  }

  /** A description's first sentence on one line, cut at {@value #LIST_WIDTH} characters. */
  static String firstSentence(String description) {
    String text = String.join(" ", description.strip().lines().map(String::strip).toList());
    int end = text.indexOf(". ");
    String first = end >= 0 ? text.substring(0, end + 1) : text;
    return first.length() <= LIST_WIDTH ? first : first.substring(0, LIST_WIDTH - 3) + "...";
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3fs", nanos / 1e9);
  }
}
