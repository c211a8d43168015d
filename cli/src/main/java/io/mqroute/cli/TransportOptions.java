package io.mqroute.cli;

import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.config.UserError;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Option;

/** How a process joins the cluster's Artery: the cluster's keys (mutual TLS) or plain tcp. */
final class TransportOptions {
  @Option(
      names = "--keys",
      paramLabel = "DIR",
      description =
          "The cluster's keys (made once with 'mqroute keys DIR', copied to every node): Artery over"
              + " mutual TLS, the default transport.")
  Path keys;

  @Option(
      names = "--plain-tcp",
      description = "Artery over plain, unauthenticated tcp instead of TLS (loopback only).")
  boolean plainTcp;

  /**
   * A client node ({@code mqroute run --cluster}, {@code mqroute load}) joining the cluster of
   * {@code seeds} over this transport; {@code managementPort} -1 for no /status.
   */
  ClusterNode.Started startClient(int port, List<String> seeds, int managementPort) {
    try {
      return ClusterNode.start(
          new NodeSettings(
              NodeSettings.Role.CLIENT,
              port,
              seeds,
              null,
              null,
              managementPort,
              -1,
              keys,
              plainTcp));
    } catch (NodeConfigException e) {
      throw new UserError(e.getMessage());
    }
  }

  /** Coordinated shutdown: the client leaves the cluster before its system stops. */
  static void stopClient(ClusterNode.Started client) {
    client.system().terminate();
    ClusterNode.awaitTermination(client.system(), Duration.ofSeconds(30));
  }
}
