package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;

/**
 * A cluster node in a process of its own, for {@link MultiProcessFailoverTest}: the shipped node
 * defaults with the test's settings on top, given as one HOCON string argument. Prints {@code
 * READY} once started and runs until its system ends (SIGTERM: coordinated shutdown; SIGKILL: gone)
 * or its parent process ends.
 */
public final class NodeProcessMain {
  private NodeProcessMain() {}

  /** {@code role hocon}. */
  public static void main(String[] args) {
    NodeSettings.Role role = NodeSettings.Role.valueOf(args[0]);
    Config config =
        ConfigFactory.parseString(args[1])
            .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
            .withFallback(ConfigFactory.load())
            .resolve();
    // The test JVM may die without its @AfterEach (a crash, a surefire timeout, kill -9): then
    // nobody else will
    // stop this node, so it ends with its parent. Halt, not a graceful leave: the whole cluster is
    // going away.
    ProcessHandle.current()
        .parent()
        .ifPresent(
            parent ->
                parent
                    .onExit()
                    .thenRun(
                        () -> {
                          System.err.println(
                              "NodeProcessMain: parent process "
                                  + parent.pid()
                                  + " ended; halting");
                          Runtime.getRuntime().halt(3);
                        }));
    ClusterNode.Started node = ClusterNode.start(role, config);
    System.out.println("READY " + node.managementUri());
    System.out.flush();
    node.system().getWhenTerminated().toCompletableFuture().join();
    System.exit(0);
  }
}
