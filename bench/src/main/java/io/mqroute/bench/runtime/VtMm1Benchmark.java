package io.mqroute.bench.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.runtime.RunStats;
import io.mqroute.runtime.SimDispatcher;
import io.mqroute.runtime.SimSystem;
import io.mqroute.runtime.mm1.Mm1Model;
import io.mqroute.runtime.mm1.Mm1Params;
import io.mqroute.runtime.mm1.Mm1Result;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Simulated requests per wall-clock second of the M/M/1 calibration model: typed actors in virtual
 * time against the hand-written DES ({@link HandDesMm1}), after in-process warm-up, median of
 * several runs. Also checks that both give the same digest.
 *
 * <p>Usage: {@code java -cp bench/target/benchmarks.jar io.mqroute.bench.runtime.VtMm1Benchmark
 * [requests] [warm-ups] [runs] [dispatcher-throughput]} (defaults 1000000 3 5 5).
 */
public final class VtMm1Benchmark {
  private static final long HORIZON = TimeUnit.HOURS.toNanos(24);
  private static final long SEED = 42;

  private VtMm1Benchmark() {}

  public static void main(String[] args) throws IOException {
    int requests = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    int warmUps = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
    int throughput = args.length > 3 ? Integer.parseInt(args[3]) : 5;
    Mm1Params params = Mm1Params.rho08(SEED, requests);
    Config config =
        ConfigFactory.parseString(
            SimDispatcher.ID
                + ".throughput = "
                + throughput
                + "\n"
                + "pekko.loglevel = WARNING\npekko.stdout-loglevel = WARNING");

    printMachine();
    System.out.printf(
        Locale.ROOT,
        "model: M/M/1 rho=%.2f, mean service %.0f ns, %,d requests, seed %d, "
            + "sim-dispatcher throughput %d%n",
        params.utilisation(),
        params.meanServiceNanos(),
        requests,
        SEED,
        throughput);

    double[] actorRates = new double[runs];
    Mm1Result actorResult = null;
    for (int i = 0; i < warmUps + runs; i++) {
      SimSystem.Outcome<Mm1Result> outcome =
          SimSystem.run("bench", config, HORIZON, result -> Mm1Model.root(params, result));
      RunStats stats = outcome.stats();
      actorResult =
          outcome
              .result()
              .orElseThrow(() -> new IllegalStateException("run did not finish: " + stats));
      double rate = requests / (stats.wallNanos() / 1e9);
      System.out.printf(
          Locale.ROOT,
          "  vt-actor %-8s %7.0f ms  %6.3f M req/s  %,d tasks  %,d timers  %.2f s virtual "
              + "(%.0fx real time)  digest %016x%n",
          label(i, warmUps),
          stats.wallNanos() / 1e6,
          rate / 1e6,
          stats.tasksRun(),
          stats.timersFired(),
          stats.finalVirtualNanos() / 1e9,
          (double) stats.finalVirtualNanos() / stats.wallNanos(),
          actorResult.digest());
      if (i >= warmUps) {
        actorRates[i - warmUps] = rate;
      }
    }

    // The hand-written loop is ~10x faster, so give it 10x the work per measured run.
    Mm1Params longer = Mm1Params.rho08(SEED, requests * 10);
    double[] handRates = new double[runs];
    HandDesMm1.Result handResult = HandDesMm1.run(params);
    for (int i = 0; i < warmUps + runs; i++) {
      long start = System.nanoTime();
      HandDesMm1.Result result = HandDesMm1.run(longer);
      long wall = System.nanoTime() - start;
      double rate = longer.requests() / (wall / 1e9);
      System.out.printf(
          Locale.ROOT,
          "  hand-des %-8s %7.0f ms  %6.3f M req/s  (%,d requests)  digest %016x%n",
          label(i, warmUps),
          wall / 1e6,
          rate / 1e6,
          longer.requests(),
          result.digest());
      if (i >= warmUps) {
        handRates[i - warmUps] = rate;
      }
    }

    double actorMedian = median(actorRates);
    double handMedian = median(handRates);
    System.out.printf(
        Locale.ROOT,
        "mean sojourn: actors %.1f ns, hand DES %.1f ns, theory %.1f ns%n",
        actorResult.meanSojournNanos(),
        handResult.meanSojournNanos(),
        params.theoreticalMeanSojournNanos());
    System.out.printf(
        Locale.ROOT,
        "digests (%,d requests): actors %016x, hand DES %016x -> %s%n",
        requests,
        actorResult.digest(),
        handResult.digest(),
        actorResult.digest() == handResult.digest() ? "EQUAL" : "DIFFERENT");
    System.out.printf(
        Locale.ROOT,
        "median simulated requests per wall-second: vt-actor %.3f M, hand-des %.3f M, "
            + "ratio hand/actor %.1fx%n",
        actorMedian / 1e6,
        handMedian / 1e6,
        handMedian / actorMedian);
    if (actorResult.digest() != handResult.digest()) {
      System.exit(1);
    }
  }

  private static String label(int index, int warmUps) {
    return index < warmUps ? "warm-up" : "run " + (index - warmUps + 1);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static void printMachine() throws IOException {
    String cpu = "unknown";
    Path cpuInfo = Path.of("/proc/cpuinfo");
    if (Files.isReadable(cpuInfo)) {
      cpu =
          Files.readAllLines(cpuInfo).stream()
              .filter(line -> line.startsWith("model name"))
              .map(line -> line.substring(line.indexOf(':') + 1).trim())
              .findFirst()
              .orElse(cpu);
    }
    System.out.printf(
        Locale.ROOT,
        "machine: %d CPUs (%s), %s %s, max heap %d MB%n",
        Runtime.getRuntime().availableProcessors(),
        cpu,
        System.getProperty("java.vm.name"),
        System.getProperty("java.runtime.version"),
        Runtime.getRuntime().maxMemory() >> 20);
  }
}
