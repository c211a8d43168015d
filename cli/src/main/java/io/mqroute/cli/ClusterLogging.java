package io.mqroute.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import org.slf4j.LoggerFactory;

/** Logging of the cluster commands (node, load). */
final class ClusterLogging {
  private ClusterLogging() {}

  /**
   * Artery's TCP streams warn "Upstream failed ... connection has been aborted" whenever a peer
   * stops, even on a graceful leave; the cluster's own membership messages already say that a node
   * left. Only the cluster commands quiet it: in the simulator, a stream warning is worth seeing.
   */
  static void quietPeerDisconnects() {
    ((Logger) LoggerFactory.getLogger("org.apache.pekko.stream.Materializer"))
        .setLevel(Level.ERROR);
  }
}
