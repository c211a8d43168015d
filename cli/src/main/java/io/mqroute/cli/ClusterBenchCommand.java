package io.mqroute.cli;

import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.ClusterKeys;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.cluster.bench.ClusterBench;
import io.mqroute.config.UserError;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "cluster-bench",
    mixinStandardHelpOptions = true,
    description =
        "Cross-node throughput of the cluster path in one JVM: a host system (closed-loop client and "
            + "router) and a device system on loopback Artery TCP, 4 KiB random reads with N in flight. With --backend "
            + "file, also direct FileChannel reads of the same page-cached file and the ratio. Prints, asserts nothing.")
final class ClusterBenchCommand implements Callable<Integer> {
  @Option(
      names = "--backend",
      paramLabel = "null|file",
      defaultValue = "null",
      description = "Device backend (default ${DEFAULT-VALUE}).")
  String backend;

  @Option(
      names = "--requests",
      paramLabel = "N",
      defaultValue = "2000000",
      description = "Requests in the measured run (default ${DEFAULT-VALUE}).")
  long requests;

  @Option(
      names = "--warmup",
      paramLabel = "N",
      description =
          "Requests before the measured run (default: half of --requests). C2 compiles the path only"
              + " after some 10^5 requests; a measured run that starts before it reads low.")
  Long warmup;

  @Option(
      names = "--in-flight",
      paramLabel = "N",
      defaultValue = "64",
      description = "Requests in flight (default ${DEFAULT-VALUE}).")
  int window;

  @Option(
      names = "--queues",
      paramLabel = "N",
      defaultValue = "2",
      description = "Queues on the device node (default ${DEFAULT-VALUE}).")
  int queues;

  @Option(
      names = "--dir",
      paramLabel = "DIR",
      defaultValue = "target/cluster-bench",
      description =
          "File backend root; a 256 MiB file f-0 is written there once (default ${DEFAULT-VALUE}).")
  Path dir;

  @Option(
      names = "--transport",
      paramLabel = "T",
      description =
          "tls (default: Artery over mutual TLS, as every node runs; keys made for the run) or tcp"
              + " (plain, loopback).",
      defaultValue = "tls")
  String transport;

  @Override
  public Integer call() throws Exception {
    if (!transport.equals("tls") && !transport.equals("tcp")) {
      throw new UserError("--transport must be tls or tcp, was " + transport);
    }
    if (!backend.equals("null") && !backend.equals("file")) {
      throw new UserError("--backend must be null or file, was " + backend);
    }
    if (requests < 1 || window < 1 || queues < 1) {
      throw new UserError("--requests, --in-flight and --queues must be >= 1");
    }
    if (warmup != null && warmup < 1) {
      throw new UserError("--warmup must be >= 1, was " + warmup);
    }
    if (window > NodeSettings.MAX_WINDOW) {
      throw new UserError(
          "--in-flight must be at most "
              + NodeSettings.MAX_WINDOW
              + " (a queue's window and ring), was "
              + window);
    }
    if (dir != null && Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new UserError("--dir " + dir + " is not a directory");
    }
    // the router routes over at most this many queues; more would never all get a slot, and the
    // bench would
    // wait for them until it timed out
    int maxQueues = ConfigFactory.load().getInt("mqroute.cluster.host.max-queues");
    if (queues > maxQueues) {
      throw new UserError(
          "--queues must be at most "
              + maxQueues
              + " (the router's queue slots, "
              + "mqroute.cluster.host.max-queues), was "
              + queues);
    }
    Path keys = null;
    if (transport.equals("tls")) {
      keys = Files.createTempDirectory("mqroute-bench-keys").resolve("keys");
      ClusterKeys.create(keys);
    }
    try {
      ClusterBench.run(
          new ClusterBench.Options(
              backend,
              requests,
              warmup != null ? warmup : Math.max(1, requests / 2),
              window,
              queues,
              dir,
              256L << 20,
              keys),
          new PrintStream(System.out, true));
    } catch (NodeConfigException e) {
      throw new UserError(e.getMessage());
    } finally {
      if (keys != null) {
        for (String f :
            List.of(ClusterKeys.KEY_STORE, ClusterKeys.TRUST_STORE, ClusterKeys.PASSWORDS)) {
          Files.deleteIfExists(keys.resolve(f));
        }
        Files.deleteIfExists(keys);
        Files.deleteIfExists(keys.getParent());
      }
    }
    return Main.OK;
  }
}
