package io.mqroute.cli;

import io.mqroute.actors.config.ConfigError;
import io.mqroute.actors.experiment.ComparisonTable;
import io.mqroute.actors.experiment.ExperimentParser;
import io.mqroute.actors.experiment.ExperimentResult;
import io.mqroute.actors.experiment.ExperimentRunner;
import io.mqroute.actors.experiment.ExperimentSpec;
import io.mqroute.actors.experiment.MachineReport;
import io.mqroute.actors.experiment.VariantResult;
import io.mqroute.actors.metrics.FioTextReport;
import io.mqroute.actors.workload.FioParseException;
import io.mqroute.cli.report.ResultFiles;
import io.mqroute.cli.report.RunProgress;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run a policy experiment (HOCON) in deterministic virtual time: fio-style output per "
        + "variant, a comparison table and the digest. Exit 0 ok, 1 an invariant broke, 2 bad input.")
final class RunCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "FILE", description = "The experiment script (.conf).")
  Path file;

  @Option(names = "--seed", paramLabel = "N", description = "Replace the experiment's seed.")
  Long seed;

  @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a key of the experiment "
      + "(repeatable), e.g. --set queues.ring-size=256.")
  Map<String, String> sets = new LinkedHashMap<>();

  @Option(names = "--parallel", paramLabel = "N", description = "Variants run at once (default: the number "
      + "of processors). Results do not depend on it.")
  Integer parallel;

  @Option(names = "--brief", description = "Only the comparison table and the digest.")
  boolean brief;

  @Option(names = "--out", paramLabel = "DIR", description = "Where result.json, <variant>.fio.json, "
      + "results.csv and the plots go (default: results/<name>/<yyyyMMdd-HHmmss>/, UTC).")
  Path outDir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    ExperimentSpec exp;
    try {
      exp = ExperimentParser.parse(file, seed, sets);
    } catch (ConfigError | FioParseException e) {
      throw new UserError(e.getMessage());
    }
    int par = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
    if (par < 1) {
      throw new UserError("--parallel must be >= 1, was " + par);
    }
    // Before the run: an unusable directory is reported now, not after minutes of simulation.
    ResultFiles files = ResultFiles.create(outDir, exp.name(), Instant.now());
    out.printf("# %s: %d variant(s), seed %d%n", exp.name(), exp.variants().size(), exp.seed());
    if (!exp.description().isBlank()) {
      exp.description().strip().lines().forEach(l -> out.println("# " + l));
    }
    out.flush();
    ExperimentResult result;
    try (RunProgress progress =
        RunProgress.open(exp.name(), exp.variants().size(), spec.commandLine().getErr())) {
      result = ExperimentRunner.run(exp, par, progress);
    }
    for (VariantResult r : result.variants()) {
      if (!brief) {
        out.printf("%n=== variant %s %s%n", r.variant().name(), r.variant().params());
        out.print(FioTextReport.render(r.result().jobs(), "virtual t=" + seconds(r.result().endNanos())));
        out.print(MachineReport.render(r.variant().machine(), r.result()));
      }
      if (r.result().stall() != null) {
        out.println("STALL in " + r.variant().name() + ": " + r.result().stall());
      }
      r.result().violations().forEach(v -> out.println("VIOLATION in " + r.variant().name() + ": " + v));
    }
    out.println();
    out.print(ComparisonTable.render(result.variants()));
    out.println();
    out.println("invariants: " + (result.healthy() ? "ok" : "BROKEN"));
    out.println("digest: " + result.digest());
    files.write(result);
    out.println("results: " + files.dir());
    out.flush();
    return result.healthy() ? Main.OK : Main.INVARIANT_BROKEN;
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.3fs", nanos / 1e9);
  }
}
