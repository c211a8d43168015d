package io.mqroute.cli;

import io.mqroute.actors.bench.SimBenchmark;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Simulator speed: simulated requests per wall-second on one thread for the reference machine "
            + "(24 cores, 24 ring queues of 1024, 40 us device, 8 jobs x iodepth 128), and the heap after the run. "
            + "Microbenchmarks (serializer, selectors) are JMH: java -jar bench/target/benchmarks.jar.")
final class BenchCommand implements Callable<Integer> {
  @Option(
      names = "--requests",
      paramLabel = "N",
      description = "Requests in the measured run (default " + "${DEFAULT-VALUE}).",
      defaultValue = "2000000")
  long requests;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      description = "Requests in the unmeasured warm-up run " + "(default ${DEFAULT-VALUE}).",
      defaultValue = "1000000")
  long warmup;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    if (requests < 8 || warmup < 0) {
      throw new UserError("--requests must be >= 8 and --warmup >= 0");
    }
    PrintWriter out = spec.commandLine().getOut();
    SimBenchmark.Result r =
        SimBenchmark.run(
            requests,
            warmup,
            l -> {
              spec.commandLine().getErr().println("mqroute bench: " + l);
              spec.commandLine().getErr().flush();
            });
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
