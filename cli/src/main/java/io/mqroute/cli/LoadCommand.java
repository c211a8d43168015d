package io.mqroute.cli;

import io.mqroute.actors.machine.IoCalls;
import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.cluster.load.LoadRunner;
import io.mqroute.config.UserError;
import io.mqroute.experiment.ComparisonTable;
import io.mqroute.experiment.Summary;
import io.mqroute.experiment.report.ResultFiles;
import io.mqroute.metrics.FioJsonReport;
import io.mqroute.metrics.FioTextReport;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.workload.CpuList;
import io.mqroute.workload.FioJobFile;
import io.mqroute.workload.FioJobParser;
import io.mqroute.workload.FioParseException;
import io.mqroute.workload.FioWorkload;
import io.mqroute.workload.JobSpec;
import io.mqroute.workload.Verify;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorRef;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description =
        "Join a cluster as a client and run an fio job against its host router(s) in real time: "
            + "fio-style text (and JSON with --out), and a summary that counts the requests that ended with an "
            + "error (ECONNABORTED when a device was lost with the request on it, ...), with a table of the jobs as 'mqroute run' prints "
            + "its variants. It runs closed loop, one file per clone: rate, rate_iops, thinktime, fsync, startdelay and "
            + "nrfiles > 1 are refused.")
final class LoadCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "JOB.fio", description = "The fio job file.")
  Path jobFile;

  @Option(
      names = "--seeds",
      required = true,
      paramLabel = "HOST:PORT,...",
      description = "Seed nodes of the " + "cluster, e.g. 127.0.0.1:25520.")
  String seeds;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      description = "Also write load.fio.json and load.txt there.")
  Path out;

  @Option(
      names = "--port",
      paramLabel = "P",
      description = "This client's Artery port (default: any free).",
      defaultValue = "0")
  int port;

  @Mixin TransportOptions transport;

  @Option(
      names = "--wait",
      paramLabel = "SECONDS",
      description = "How long to wait for a host router " + "(default ${DEFAULT-VALUE}).",
      defaultValue = "30")
  int waitSeconds;

  @Option(
      names = "--host-timeout",
      paramLabel = "MS",
      description =
          "A host that answers none of a clone's outstanding requests for this many milliseconds is"
              + " taken as lost: what was sent ends ECONNABORTED (its fate is unknown), the clone"
              + " stops (default ${DEFAULT-VALUE}; ten times as long before the host's first"
              + " answer; 0: only when the host leaves the cluster). A host that holds requests"
              + " waiting on a slow or silent device says so every 100 ms, so this bounds the"
              + " host's own silence (a pause of its JVM), not the devices'.",
      defaultValue = "1000")
  long hostTimeoutMs;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  private Duration hostTimeout() {
    if (hostTimeoutMs < 0 || hostTimeoutMs > 3_600_000) {
      throw new UserError("--host-timeout: give 0..3600000 ms, was " + hostTimeoutMs);
    }
    return Duration.ofMillis(hostTimeoutMs);
  }

  /**
   * Options fio would honour that the cluster load client does not (it issues through the model's
   * job, so everything {@code mqroute run} honours runs here too, except real-process placement):
   * refused, never run as if absent.
   */
  private static void refuseWhatTheLoadDoesNotDo(FioJobFile file) {
    for (JobSpec j : file.jobs()) {
      String what =
          j.ioengine().calls() != IoCalls.DATA
              ? "ioengine="
                  + j.ioengine().fioName()
                  + " (it sends FUSE "
                  + j.ioengine().calls().ops().stream()
                      .map(Enum::name)
                      .collect(Collectors.joining(", "))
                  + " requests; a device node's file backend keeps files by number, with no names,"
                  + " and serves READ, WRITE, FSYNC and FLUSH only)"
              : j.fsyncEvery() > 0
                  ? "fsync"
                  : j.nrfiles() > 1
                      ? "nrfiles > 1"
                      : !j.cpusAllowed().isAll() || !j.numaCpuNodes().equals(CpuList.ALL)
                          ? "cpus_allowed / numa_cpu_nodes (the load client does not pin its"
                              + " threads)"
                          : null;
      if (what == null && j.verify().enabled() && !j.verify().loadComputes()) {
        what =
            "verify="
                + j.verify().method()
                + " (the load client checks "
                + Verify.Kind.names()
                + ")";
      }
      if (what == null) {
        what = togetherProblem(j);
      }
      if (what == null) {
        what = LoadRunner.verifyProblem(j);
      }
      if (what != null) {
        throw new UserError(
            file.source()
                + ":"
                + j.line()
                + ": job "
                + j.name()
                + ": "
                + what
                + " is not supported by mqroute load; remove it");
      }
    }
  }

  /**
   * What ties a job to the others, which the machine does and the load runner (stonewall groups,
   * each group's clones at once, no machine) does not.
   */
  private static String togetherProblem(JobSpec j) {
    if (j.control().waitFor() != null) {
      return "wait_for";
    }
    if (j.control().exitAll()) {
      return "exitall";
    }
    if (j.control().flows()) {
      return "flow";
    }
    if (j.pattern().verifyBacklog() > 0) {
      return "verify_backlog (the load client checks its data after the writes)";
    }
    if (j.control().steadyState() != null) {
      return "steadystate";
    }
    return null;
  }

  @Override
  public Integer call() throws Exception {
    ClusterLogging.quietPeerDisconnects();
    FioJobFile file;
    try {
      file = FioJobParser.parse(jobFile);
    } catch (FioParseException e) {
      throw new UserError(e.getMessage());
    } catch (IOException e) {
      throw new UserError(jobFile + ": cannot read (" + e.getMessage() + ")");
    }
    refuseWhatTheLoadDoesNotDo(file);
    hostTimeout(); // checked before any node starts
    try { // the clones are planned as mqroute run plans them: its refusals, before any node starts
      new FioWorkload(file).plans(CpuTopology.uniform(1, 1));
    } catch (IllegalArgumentException e) { // FioParseException names file and line
      throw new UserError(e.getMessage());
    }
    if (out != null) {
      try {
        Files.createDirectories(out);
      } catch (IOException e) {
        throw new UserError(
            "--out " + out + ": cannot create the directory (" + e.getMessage() + ")");
      }
    }
    List<String> seedList;
    try {
      seedList = NodeSettings.parseSeeds(seeds);
    } catch (NodeConfigException e) {
      throw new UserError(e.getMessage());
    }
    if (seedList.isEmpty()) {
      throw new UserError("--seeds: give at least one host:port");
    }
    ClusterNode.Started client = transport.startClient(port, seedList, -1);
    PrintWriter o = spec.commandLine().getOut();
    try {
      List<ActorRef<Request>> routers;
      try {
        routers = LoadRunner.awaitRouters(client.system(), Duration.ofSeconds(waitSeconds));
      } catch (TimeoutException e) {
        throw new UserError(
            "no host router in the cluster of "
                + seeds
                + " after "
                + waitSeconds
                + " s (is a "
                + "--role host node up?)");
      }
      try {
        LoadRunner.awaitQueues(client.system(), Duration.ofSeconds(waitSeconds));
      } catch (TimeoutException e) {
        throw new UserError(
            "no device queue in the cluster of "
                + seeds
                + " after "
                + waitSeconds
                + " s (is a --role device node up?)");
      }
      o.printf(
          "# %s: %d job clone(s) against %d host router(s)%n",
          jobFile, file.totalClones(), routers.size());
      file.warnings().forEach(n -> o.println("# " + n));
      o.flush();
      LoadRunner.Result r =
          LoadRunner.run(
              client.system(),
              file,
              routers,
              Duration.ofSeconds(30),
              hostTimeout(),
              Duration.ofHours(24));
      String text =
          FioTextReport.render(
              r.clones(), String.format(Locale.ROOT, "real t=%.3fs", r.wallNanos() / 1e9));
      String summary = table(r) + summary(r) + verifySummary(r);
      o.print(text);
      o.print(summary);
      if (out != null) {
        Files.writeString(out.resolve("load.txt"), text + summary);
        Files.writeString(
            out.resolve("load.fio.json"),
            FioJsonReport.render(
                r.clones(),
                file.globalOptions(),
                ResultFiles.version(),
                Instant.now().getEpochSecond()));
        o.println("results: " + out);
      }
      o.flush();
      // read-back that differs from what was acknowledged: the storage broke its contract
      r.violations().forEach(v -> o.println("violation: " + v));
      o.flush();
      return r.verify().errors() > 0 || !r.violations().isEmpty() ? Main.INVARIANT_BROKEN : Main.OK;
    } finally {
      TransportOptions.stopClient(client);
    }
  }

  /**
   * The comparison table's columns (as {@code mqroute run} prints them), one row per job, all
   * clones merged.
   */
  static String table(LoadRunner.Result r) {
    Map<String, List<JobStats>> byJob = new LinkedHashMap<>();
    for (JobStats s : r.clones()) {
      byJob.computeIfAbsent(s.info().name(), k -> new ArrayList<>()).add(s);
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(ComparisonTable.row("job", ComparisonTable.Column::header, "errors"));
    byJob.forEach(
        (name, clones) -> {
          Summary m = Summary.of(clones);
          rows.add(ComparisonTable.row(name, c -> c.cell(m), Long.toString(m.errors())));
        });
    return "\n" + ComparisonTable.layout(rows, false);
  }

  static String summary(LoadRunner.Result r) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "%nsummary: %d requests in %.3f s (%.0f/s), %d OK, %d errors",
            r.requests(),
            r.wallNanos() / 1e9,
            r.requests() / Math.max(1e-9, r.wallNanos() / 1e9),
            r.byStatus().getOrDefault(Status.OK, 0L),
            r.errors()));
    r.byStatus().entrySet().stream()
        .filter(e -> e.getKey() != Status.OK)
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> sb.append(String.format(Locale.ROOT, " %s=%d", e.getKey(), e.getValue())));
    if (r.abandoned() > 0) {
      sb.append(
          String.format(Locale.ROOT, " (%d unanswered, counted as ECONNABORTED)", r.abandoned()));
    }
    return sb.append('\n').toString();
  }

  static String verifySummary(LoadRunner.Result r) {
    if (r.verify().checked() == 0 && r.verify().errors() == 0) {
      return "";
    }
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "verify: %d blocks read back and checked, %d errors%n",
                r.verify().checked(),
                r.verify().errors()));
    r.verify().first().forEach(e -> sb.append("  ").append(e).append('\n'));
    return sb.toString();
  }
}
