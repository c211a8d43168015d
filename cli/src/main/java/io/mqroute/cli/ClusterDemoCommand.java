package io.mqroute.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "cluster-demo",
    mixinStandardHelpOptions = true,
    description = "Start a three-node cluster on 127.0.0.1 as separate processes of this jar: one host (port P) "
        + "and two devices (P+1, P+2), management on P+1000..P+1002. Ctrl-C stops all three (SIGTERM: each "
        + "leaves the cluster).")
final class ClusterDemoCommand implements Callable<Integer> {
  @Option(names = "--base-port", paramLabel = "P", description = "The host's port (default ${DEFAULT-VALUE}).",
      defaultValue = "25520")
  int basePort;

  @Option(names = "--data", paramLabel = "DIR", description = "Devices serve with the file backend under "
      + "DIR/device-a and DIR/device-b (default: the null backend).")
  Path data;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    if (basePort < 1 || basePort + 1002 > 65535) {
      throw new UserError("--base-port must be in 1..64533, was " + basePort);
    }
    PrintWriter out = spec.commandLine().getOut();
    String seeds = "127.0.0.1:" + basePort + ",127.0.0.1:" + (basePort + 1) + ",127.0.0.1:" + (basePort + 2);
    List<List<String>> nodes = List.of(
        node("host", basePort, seeds, null, 0),
        node("device", basePort + 1, seeds, data == null ? null : data.resolve("device-a"), 0),
        node("device", basePort + 2, seeds, data == null ? null : data.resolve("device-b"), 16));
    List<Process> processes = new ArrayList<>();
    Thread stopper = new Thread(() -> stopAll(processes), "cluster-demo-stop");
    Runtime.getRuntime().addShutdownHook(stopper);
    for (List<String> cmd : nodes) {
      out.println("mqroute cluster-demo: " + String.join(" ", cmd.subList(cmd.indexOf(Main.class.getName()) + 1,
          cmd.size())));
      out.flush();
      ProcessBuilder pb = new ProcessBuilder(cmd).inheritIO();
      synchronized (processes) {
        processes.add(pb.start());
      }
    }
    out.printf("mqroute cluster-demo: running; try%n  ./mqroute load --seeds 127.0.0.1:%d JOB.fio%n"
        + "  curl http://127.0.0.1:%d/status%n  curl http://127.0.0.1:%d/metrics%nCtrl-C stops all three.%n",
        basePort, basePort + 1000, basePort + 1001);
    out.flush();
    int exit = Main.OK;
    for (Process p : processes) {
      if (p.waitFor() != 0) {
        exit = Main.INVARIANT_BROKEN;
      }
    }
    return exit;
  }

  private static List<String> node(String role, int port, String seeds, Path data, int firstQueue)
      throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaBinary());
    Path logback = Path.of("cluster-config", "logback.xml");
    if (Files.isRegularFile(logback)) {
      cmd.add("-Dlogback.configurationFile=" + logback);
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of("node", "--role", role, "--port", Integer.toString(port), "--seeds", seeds));
    if (role.equals("device")) {
      cmd.addAll(List.of("--first-queue", Integer.toString(firstQueue)));
    }
    if (data != null) {
      cmd.addAll(List.of("--data", data.toString()));
    }
    return cmd;
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command()
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
