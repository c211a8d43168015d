package io.mqroute.cli;

import io.mqroute.config.UserError;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Simulator speed: simulated requests per wall-second on one thread for the reference machine "
            + "(24 cores, 24 ring queues of 1024, 40 us device, 8 jobs x iodepth 128), and the heap after the run. "
            + "With --clock real, the same machine and actors on real dispatchers with microsecond timers: "
            + "requests per wall-second against what the model does per virtual second. "
            + "Microbenchmarks (serializer, selectors) are JMH: java -jar bench/target/benchmarks.jar.")
final class BenchCommand implements Callable<Integer> {
  @Option(
      names = "--requests",
      paramLabel = "N",
      description =
          "Requests in the measured run (default 2000000 in virtual time, 20000 in real time).")
  Long requests;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      description =
          "Requests in the unmeasured warm-up run (default 1000000 in virtual time, 5000 in real"
              + " time).")
  Long warmup;

  /** The clock the machine's actors run on. */
  enum Clock {
    virtual,
    real
  }

  @Option(
      names = "--clock",
      paramLabel = "CLOCK",
      description = "virtual (default) or real.",
      defaultValue = "virtual")
  Clock clock;

  @Option(
      names = "--timeout",
      paramLabel = "SECONDS",
      description = "Wall-clock bound of each real-time run (default ${DEFAULT-VALUE}).",
      defaultValue = "300")
  int timeoutSeconds;

  @Option(
      names = "--census",
      description =
          "Instead of timing: run the reference machine once (virtual time, --requests, default"
              + " 100000) and print every message of the request path per request, by kind, with"
              + " the run-queue tasks and timers per request (deterministic; docs/architecture.md"
              + " has the table).")
  boolean census;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    boolean real = clock == Clock.real;
    if (census) {
      if (real) {
        throw new UserError("--census counts in virtual time only (drop --clock real)");
      }
      long n = this.requests != null ? this.requests : 100_000;
      if (n < 8) {
        throw new UserError("--requests must be >= 8");
      }
      spec.commandLine().getOut().print(SimBenchmark.census(n).render());
      spec.commandLine().getOut().flush();
      return Main.OK;
    }
    long requests = this.requests != null ? this.requests : real ? 20_000 : 2_000_000;
    long warmup = this.warmup != null ? this.warmup : real ? 5_000 : 1_000_000;
    if (requests < 8 || warmup < 0) {
      throw new UserError("--requests must be >= 8 and --warmup >= 0");
    }
    if (timeoutSeconds < 1) {
      throw new UserError("--timeout must be >= 1 second");
    }
    PrintWriter out = spec.commandLine().getOut();
    Consumer<String> log =
        l -> {
          spec.commandLine().getErr().println("mqroute bench: " + l);
          spec.commandLine().getErr().flush();
        };
    if (real) {
      SimBenchmark.RealTimeResult r =
          SimBenchmark.runRealTime(requests, warmup, Duration.ofSeconds(timeoutSeconds), log);
      out.printf(Locale.ROOT, "clock:               real (microsecond timers)%n");
      out.printf(Locale.ROOT, "requests:            %d%n", r.requests());
      out.printf(Locale.ROOT, "wall:                %.2f s%n", r.wallNanos() / 1e9);
      out.printf(Locale.ROOT, "real req/s:          %.0f%n", r.requestsPerWallSecond());
      out.printf(
          Locale.ROOT, "model req/s:         %.0f (virtual time)%n", r.modelRequestsPerSecond());
      out.printf(Locale.ROOT, "kept up:             %.3f of the model%n", r.keptUp());
      out.printf(Locale.ROOT, "mean latency:        %.1f us%n", r.meanLatencyNanos() / 1e3);
      out.flush();
      return Main.OK;
    }
    SimBenchmark.Result r = SimBenchmark.run(requests, warmup, log);
    Runtime rt = Runtime.getRuntime();
    out.printf(Locale.ROOT, "requests:            %d%n", r.requests());
    out.printf(Locale.ROOT, "wall:                %.2f s%n", r.wallNanos() / 1e9);
    out.printf(
        Locale.ROOT,
        "virtual:             %.3f s (%.1fx real time)%n",
        r.virtualNanos() / 1e9,
        r.speedUp());
    out.printf(Locale.ROOT, "simulated req/s:     %.0f%n", r.requestsPerWallSecond());
    out.printf(
        Locale.ROOT,
        "per CPU-second:      %.0f simulated req (driver thread CPU %.2f s)%n",
        r.requestsPerCpuSecond(),
        r.cpuNanos() / 1e9);
    out.printf(
        Locale.ROOT,
        "per request:         %.1f run-queue tasks, %.1f timers (%.0f ns of wall time per task)%n",
        r.tasksPerRequest(),
        r.timersPerRequest(),
        r.wallNanosPerTask());
    out.printf(
        Locale.ROOT,
        "heap after run + GC: %.1f MiB (max heap %.0f MiB)%n",
        r.heapAfterGcBytes() / 1048576.0,
        rt.maxMemory() / 1048576.0);
    out.flush();
    return Main.OK;
  }
}
