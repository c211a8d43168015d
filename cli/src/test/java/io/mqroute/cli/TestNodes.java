package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/** What the tests that start node processes share: free ports, a node's /status, a log's tail. */
final class TestNodes {
  private TestNodes() {}

  /**
   * A base port P such that P + each of {@code offsets} is free now. Below the kernel's ephemeral
   * range (ip_local_port_range, 32768-60999 by default): a port free now in that range can be
   * handed to any outgoing connection of the tests running beside this one before the node binds
   * it, which CI saw ("Address already in use").
   */
  static int freeBasePort(int... offsets) {
    SplittableRandom rnd = new SplittableRandom();
    for (int attempt = 0; attempt < 200; attempt++) {
      int p = rnd.nextInt(10000, 31000);
      if (IntStream.of(offsets).allMatch(o -> isFree(p + o))) {
        return p;
      }
    }
    throw new IllegalStateException("no free base port found");
  }

  static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The node's {@code /status} on its management port (HTTP 200 or the assertion fails). */
  static JsonNode status(int port) throws IOException, InterruptedException {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/status"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return new ObjectMapper().readTree(r.body());
  }

  /** {@code mqroute ARGS} in a JVM of its own, on this test's class path. */
  static List<String> mqroute(String... args) {
    List<String> cmd = new java.util.ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    return cmd;
  }

  /**
   * Starts {@code cmd} in {@code log}'s directory (fio's verify jobs leave a state file where they
   * run), its output in {@code log}, no input.
   */
  static Process start(Path log, List<String> cmd) throws IOException {
    return new ProcessBuilder(cmd)
        .directory(log.getParent().toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
        .start();
  }

  /** True if {@code tool} is an executable on the PATH. */
  static boolean onPath(String tool) {
    for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      if (Files.isExecutable(Path.of(d, tool))) {
        return true;
      }
    }
    return false;
  }

  /** The last 30 lines of a log, for an assertion's message. */
  static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
