package io.mqroute.cli;

import io.mqroute.actors.machine.MemoryEstimate;
import io.mqroute.chaos.ChaosProfile;
import io.mqroute.chaos.ChaosProfileParser;
import io.mqroute.chaos.ChaosRun;
import io.mqroute.chaos.ChaosSuite;
import io.mqroute.chaos.ReplayFile;
import io.mqroute.chaos.SeedResult;
import io.mqroute.chaos.Semantics;
import io.mqroute.config.ConfigError;
import io.mqroute.config.UserError;
import io.mqroute.policies.strategy.Durations;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "chaos",
    mixinStandardHelpOptions = true,
    description =
        "CPU-hotplug (generic/650 style) and fault-injection runs in virtual time, one per seed, with "
            + "the invariants checked. One line per seed, then 'violations: N'. Exit 0: no violation; 1: a "
            + "violation (its seed, event log and a replay file are printed); 2: bad input.")
final class ChaosCommand implements Callable<Integer> {
  private static final Pattern SEEDS = Pattern.compile("(\\d{1,18})(?:\\.\\.(\\d{1,18}))?");

  @Option(
      names = "--profile",
      paramLabel = "generic-650|FILE",
      defaultValue = "generic-650",
      description = "A built-in profile or a profile file (default: ${DEFAULT-VALUE}).")
  String profile;

  @Option(
      names = "--seeds",
      paramLabel = "A..B",
      defaultValue = "1..20",
      description = "Seeds to run, a range or one seed (default: ${DEFAULT-VALUE}).")
  String seeds;

  @Option(
      names = "--semantics",
      paramLabel = "kernel|hotplug-aware",
      description = "What hotplug does to queues (default: the profile's).")
  String semantics;

  @Option(names = "--quick", description = "Apply the profile's quick block (CI size).")
  boolean quick;

  @Option(
      names = "--parallel",
      paramLabel = "N",
      description =
          "Seeds at once (default: the number of " + "processors). Results do not depend on it.")
  Integer parallel;

  @Option(
      names = "--replay",
      paramLabel = "FILE",
      description =
          "Run a recorded seed again and check that it " + "gives the same event log and digest.")
  Path replay;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "results/chaos",
      description = "Where replay files of failing seeds go (default: ${DEFAULT-VALUE}).")
  Path outDir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    if (replay != null) {
      for (String o : List.of("--profile", "--seeds", "--semantics", "--quick")) {
        if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
          throw new UserError(
              "--replay runs what the replay file recorded; " + o + " cannot change it");
        }
      }
    }
    try {
      return replay != null ? replay(out) : runSeeds(out);
    } catch (ConfigError | IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  private int runSeeds(PrintWriter out) {
    Matcher m = SEEDS.matcher(seeds);
    if (!m.matches()) {
      throw new UserError("--seeds must be A..B or one seed, e.g. 1..200, got \"" + seeds + "\"");
    }
    long first = Long.parseLong(m.group(1));
    long last = m.group(2) == null ? first : Long.parseLong(m.group(2));
    if (last < first) {
      throw new UserError("--seeds " + seeds + ": the range is empty");
    }
    int p = parallel != null ? parallel : Runtime.getRuntime().availableProcessors();
    if (p < 1) {
      throw new UserError("--parallel must be >= 1, got " + p);
    }
    Semantics sem = semantics == null ? null : Semantics.parse(semantics);
    ChaosProfile prof = ChaosProfileParser.parse(ChaosProfileParser.load(profile), sem, quick);
    long perSeed = MemoryEstimate.of(prof.machine(), prof.plans()).runBytes();
    int fit = (int) Math.max(1, Math.min(p, MemoryEstimate.budget() / perSeed));
    if (fit < p) { // a seed that fits alone (the parser checked) may not fit p times
      spec.commandLine()
          .getErr()
          .println(
              "mqroute: "
                  + fit
                  + " seed(s) at once instead of "
                  + p
                  + ": more would not fit the heap");
      p = fit;
    }
    out.printf(
        "chaos %s: %s semantics, seeds %d..%d%s, %d writers x %d iterations, hotplug every %s%n",
        prof.name(),
        prof.semantics().id(),
        first,
        last,
        quick ? " (quick)" : "",
        prof.writers(),
        prof.iterations(),
        prof.hotplugIntervalNanos() == 0 ? "never" : Durations.format(prof.hotplugIntervalNanos()));
    out.flush();
    List<SeedResult> results =
        ChaosSuite.run(
            prof,
            first,
            last,
            p,
            r -> {
              out.println(line(r));
              out.flush();
            });
    long requests = 0;
    long errors = 0;
    long hotplug = 0;
    long faults = 0;
    long violations = 0;
    for (SeedResult r : results) {
      requests += r.requests();
      errors += r.errors();
      hotplug += r.hotplug();
      faults += r.faults();
      violations += r.violations().size();
      if (!r.passed()) {
        report(out, prof, r);
      }
    }
    out.printf(
        Locale.ROOT,
        "total: %d seeds, %,d requests (%,d errors), %,d hotplug events, %,d faults%n",
        results.size(),
        requests,
        errors,
        hotplug,
        faults);
    out.println("violations: " + violations);
    return violations == 0 ? Main.OK : Main.INVARIANT_BROKEN;
  }

  static String line(SeedResult r) {
    return String.format(
        Locale.ROOT,
        "seed %-6d %-13s requests %,9d  errors %,5d  hotplug %,4d  faults %,5d  "
            + "rerouted %,5d  violations %d  digest %s",
        r.seed(),
        r.semantics().id(),
        r.requests(),
        r.errors(),
        r.hotplug(),
        r.faults(),
        r.rerouted(),
        r.violations().size(),
        r.digest());
  }

  private void report(PrintWriter out, ChaosProfile prof, SeedResult r) {
    out.println();
    out.println(
        "seed "
            + r.seed()
            + " ("
            + r.semantics().id()
            + ") broke "
            + r.violations().size()
            + " check(s):");
    r.violations().forEach(v -> out.println("  " + v));
    out.println("event log (" + r.events().size() + " events):");
    r.events().forEach(e -> out.println("  " + e));
    Path file =
        outDir.resolve(
            "replay-"
                + prof.name().replaceAll("[^A-Za-z0-9._-]", "_")
                + "-"
                + r.semantics().id()
                + "-seed"
                + r.seed()
                + ".conf");
    try {
      ReplayFile.of(prof, r).write(file);
      out.println("replay: mqroute chaos --replay " + file);
    } catch (IOException e) {
      out.println("could not write the replay file " + file + ": " + e.getMessage());
    }
    out.println();
  }

  private int replay(PrintWriter out) {
    ReplayFile rec = ReplayFile.read(replay);
    ChaosProfile prof = rec.profile();
    SeedResult again = ChaosRun.run(prof, rec.seed());
    out.println(line(again));
    again.violations().forEach(v -> out.println("  " + v));
    String diff = rec.divergence(again);
    if (diff != null) {
      out.println("replay diverged: " + diff);
      out.println("violations: " + (again.violations().size() + 1));
      return Main.INVARIANT_BROKEN;
    }
    out.println(
        "replay: the same " + again.events().size() + " events and digest " + again.digest());
    out.println("violations: " + again.violations().size());
    return again.passed() ? Main.OK : Main.INVARIANT_BROKEN;
  }
}
