package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * A cluster node in a process of its own, for {@link MultiProcessFailoverTest}: the shipped node defaults with
 * the test's settings on top, given as one HOCON string argument. Prints {@code READY} once started and runs
 * until its system ends (SIGTERM: coordinated shutdown; SIGKILL: gone).
 */
public final class NodeProcessMain {
  private NodeProcessMain() {}

  /** {@code role hocon}. */
  public static void main(String[] args) {
    NodeSettings.Role role = NodeSettings.Role.valueOf(args[0]);
    Config config = ConfigFactory.parseString(args[1]).withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
        .withFallback(ConfigFactory.load()).resolve();
    ClusterNode.Started node = ClusterNode.start(role, config);
    System.out.println("READY " + node.managementUri());
    System.out.flush();
    node.system().getWhenTerminated().toCompletableFuture().join();
    System.exit(0);
  }
}
