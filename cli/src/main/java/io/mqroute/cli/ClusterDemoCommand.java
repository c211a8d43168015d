package io.mqroute.cli;

import io.mqroute.cluster.ClusterKeys;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.config.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "cluster-demo",
    mixinStandardHelpOptions = true,
    description =
        "Start a three-node cluster on 127.0.0.1 as separate processes of this jar: one host (port P) "
            + "and two devices (P+1, P+2), management on P+1000..P+1002. Ctrl-C stops all three (SIGTERM: each "
            + "leaves the cluster).")
final class ClusterDemoCommand implements Callable<Integer> {
  @Option(
      names = "--base-port",
      paramLabel = "P",
      description = "The host's port (default ${DEFAULT-VALUE}).",
      defaultValue = "25520")
  int basePort;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "Both devices serve one data directory, DIR/data, with the file backend (default: the"
              + " null backend): every queue of the router reaches the same files, as the queues of"
              + " one FUSE or virtio-fs mount reach one file system.")
  Path data;

  @Option(
      names = "--keys",
      paramLabel = "DIR",
      description =
          "The cluster's keys (Artery over mutual TLS): used if DIR holds them, else created there"
              + " (default: DATA/keys with --data, else a new temporary directory).")
  Path keys;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description =
          "A HOCON file every node reads (as `mqroute node --config`), e.g. to set"
              + " mqroute.cluster.host.suspect-after.")
  Path config;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (basePort < 1 || basePort + 1002 > 65535) {
      throw new UserError("--base-port must be in 1..64533, was " + basePort);
    }
    // All six ports up front: a node that cannot bind fails in its own process, and the other two
    // would wait for
    // it to join; one clear line before anything starts is better.
    if (config != null && !Files.isRegularFile(config)) {
      throw new UserError("--config " + config + ": no such file");
    }
    requireFree(basePort, "the host's Artery");
    requireFree(basePort + 1, "device A's Artery");
    requireFree(basePort + 2, "device B's Artery");
    requireFree(basePort + 1000, "the host's management");
    requireFree(basePort + 1001, "device A's management");
    requireFree(basePort + 1002, "device B's management");
    PrintWriter out = spec.commandLine().getOut();
    Path keyDir =
        keys != null
            ? keys
            : data != null
                ? data.resolve("keys")
                : Files.createTempDirectory("mqroute-demo").resolve("keys");
    if (!Files.exists(keyDir.resolve(ClusterKeys.KEY_STORE))) {
      try {
        ClusterKeys.create(keyDir);
      } catch (NodeConfigException e) {
        throw new UserError(e.getMessage());
      }
      out.println("mqroute cluster-demo: created the cluster's keys in " + keyDir);
    }
    String seeds =
        "127.0.0.1:" + basePort + ",127.0.0.1:" + (basePort + 1) + ",127.0.0.1:" + (basePort + 2);
    List<List<String>> nodes =
        List.of(
            node("host", basePort, seeds, null, 0, keyDir, config),
            node(
                "device",
                basePort + 1,
                seeds,
                data == null ? null : data.resolve("data"),
                0,
                keyDir,
                config),
            node(
                "device",
                basePort + 2,
                seeds,
                data == null ? null : data.resolve("data"),
                16,
                keyDir,
                config));
    List<Process> processes = new ArrayList<>();
    AtomicBoolean stopping = new AtomicBoolean();
    Thread stopper =
        new Thread(
            () -> {
              stopping.set(
                  true); // Ctrl-C or SIGTERM: the nodes end because they are told to, not because
              // one failed
              stopAll(processes);
            },
            "cluster-demo-stop");
    Runtime.getRuntime().addShutdownHook(stopper);
    for (List<String> cmd : nodes) {
      out.println(
          "mqroute cluster-demo: "
              + String.join(" ", cmd.subList(cmd.indexOf(Main.class.getName()) + 1, cmd.size())));
      out.flush();
      ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
      try {
        synchronized (processes) {
          processes.add(pb.start());
        }
      } catch (IOException e) {
        stopAll(processes);
        throw new UserError("cannot start " + cmd.get(0) + ": " + e.getMessage());
      }
    }
    out.printf(
        "mqroute cluster-demo: running; try%n  ./mqroute load --seeds 127.0.0.1:%d --keys %s JOB.fio%n"
            + "  curl http://127.0.0.1:%d/status%n  curl http://127.0.0.1:%d/metrics%nCtrl-C stops all three.%n",
        basePort, keyDir, basePort + 1000, basePort + 1001);
    out.flush();
    // The demo is the three nodes together: when any of them ends (failed to start, could not join,
    // was
    // downed, Ctrl-C), the others are stopped too instead of waiting for one that will not come
    // back.
    CompletableFuture.anyOf(
            processes.stream().map(Process::onExit).toArray(CompletableFuture[]::new))
        .join();
    if (stopping.get()) {
      return Main.OK;
    }
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      if (!p.isAlive()) {
        out.printf(
            "mqroute cluster-demo: the node on port %d ended (exit %d); stopping the others%n",
            basePort + i, p.exitValue());
      }
    }
    out.flush();
    stopAll(processes);
    return Main.INVARIANT_BROKEN;
  }

  /** One line naming the port when it cannot be bound on 127.0.0.1 now. */
  private static void requireFree(int port, String what) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress("127.0.0.1", port));
    } catch (IOException e) {
      throw new UserError("port 127.0.0.1:" + port + " (" + what + ") is busy: " + e.getMessage());
    }
  }

  private static List<String> node(
      String role, int port, String seeds, Path data, int firstQueue, Path keys, Path config)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    Path logback = Path.of("cluster-config", "logback.xml");
    if (Files.isRegularFile(logback)) {
      cmd.add("-Dlogback.configurationFile=" + logback);
    }
    // if this process is killed without its shutdown hook (SIGKILL), the nodes end with it (see
    // NodeCommand)
    cmd.add("-D" + NodeCommand.EXIT_WITH_PARENT + "=true");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(
        List.of(
            "node",
            "--role",
            role,
            "--port",
            Integer.toString(port),
            "--seeds",
            seeds,
            "--keys",
            keys.toString()));
    if (role.equals("device")) {
      cmd.addAll(List.of("--first-queue", Integer.toString(firstQueue)));
    }
    if (data != null) {
      cmd.addAll(List.of("--data", data.toString()));
    }
    if (config != null) {
      cmd.addAll(List.of("--config", config.toAbsolutePath().toString()));
    }
    return cmd;
  }

  private static String javaBinary() {
    return ProcessHandle.current()
        .info()
        .command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }

  /** SIGTERM to each (coordinated shutdown), then SIGKILL to any still running after 20 s. */
  private static void stopAll(List<Process> processes) {
    List<Process> ps;
    synchronized (processes) {
      ps = List.copyOf(processes);
    }
    ps.forEach(Process::destroy);
    for (Process p : ps) {
      try {
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        p.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }
}
