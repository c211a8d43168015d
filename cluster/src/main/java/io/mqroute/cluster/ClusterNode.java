package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.management.javadsl.PekkoManagement;

/**
 * Starts one cluster node: the ActorSystem {@code mqroute} with the role's actors, joined to the
 * seed nodes, with Pekko Management on loopback. SIGTERM (and Ctrl-C) runs Pekko's coordinated
 * shutdown through its JVM shutdown hook: the node leaves the cluster gracefully before the JVM
 * exits.
 */
public final class ClusterNode {
  private ClusterNode() {}

  /** A started node: its system and where management listens (null when it is off). */
  public record Started(ActorSystem<Void> system, String managementUri) {}

  /**
   * Starts the node of {@code settings} (config built by {@link NodeSettings#toConfig}).
   *
   * @throws NodeConfigException for a port in use or a management endpoint that cannot bind
   */
  public static Started start(NodeSettings settings) {
    Config config = settings.toConfig();
    return start(settings.role(), config);
  }

  public static Started start(NodeSettings.Role role, Config config) {
    // Checked before the system starts: Pekko would log the bind failure with a stack trace first
    String host = config.getString("pekko.remote.artery.canonical.hostname");
    requireFree(host, config.getInt("pekko.remote.artery.canonical.port"), "Artery");
    boolean management =
        config.getInt("pekko.management.http.port") >= 0 && role != NodeSettings.Role.CLIENT;
    if (management) {
      requireFree(
          config.getString("pekko.management.http.hostname"),
          config.getInt("pekko.management.http.port"),
          "management");
    }
    config =
        ConfigFactory.parseString(
                "pekko.coordinated-shutdown.reason-overrides.\""
                    + ManagementFailed.class.getName()
                    + "\".exit-jvm = off\n"
                    // a node whose router or queue stopped must not look like a clean exit to
                    // whoever runs it
                    + "pekko.coordinated-shutdown.reason-overrides.\""
                    + NodeGuardian.ChildStopped.class.getName()
                    + "\".exit-code = 1")
            .withFallback(config);
    ActorSystem<Void> system;
    try {
      system = ActorSystem.create(NodeGuardian.create(role), "mqroute", config);
    } catch (RuntimeException e) {
      throw new NodeConfigException("cannot start the node: " + rootMessage(e));
    }
    String uri = null;
    if (management) {
      try {
        uri =
            PekkoManagement.get(system)
                .start()
                .toCompletableFuture()
                .get(30, TimeUnit.SECONDS)
                .toString();
      } catch (Exception e) {
        // not system.terminate(): with exit-jvm = on its coordinated shutdown would System.exit(0)
        // while the
        // caller is about to report this error and exit 2. This reason turns exit-jvm off (see
        // start()).
        CoordinatedShutdown.get(system).run(ManagementFailed.INSTANCE);
        awaitTermination(system, Duration.ofSeconds(30));
        throw new NodeConfigException(
            "cannot start management on port "
                + config.getInt("pekko.management.http.port")
                + ": "
                + rootMessage(e));
      }
    }
    return new Started(system, uri);
  }

  /**
   * Why a node stops when its management endpoint did not start: the caller exits, not the
   * shutdown.
   */
  static final class ManagementFailed implements CoordinatedShutdown.Reason {
    static final ManagementFailed INSTANCE = new ManagementFailed();

    private ManagementFailed() {}
  }

  /** Fails with one line when {@code port} (not 0) cannot be bound on {@code host} right now. */
  private static void requireFree(String host, int port, String what) {
    if (port == 0) {
      return;
    }
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(host, port));
    } catch (IOException e) {
      throw new NodeConfigException(
          what + " port " + host + ":" + port + " is not free (" + e.getMessage() + ")");
    }
  }

  /** Waits for the system to end; false if it did not within {@code timeout}. */
  public static boolean awaitTermination(ActorSystem<?> system, Duration timeout) {
    try {
      system
          .getWhenTerminated()
          .toCompletableFuture()
          .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      return true;
    } catch (Exception e) {
      return false;
    }
  }

  static String rootMessage(Throwable e) {
    Throwable t = e;
    while ((t instanceof CompletionException
            || t instanceof ExecutionException
            || t.getMessage() == null)
        && t.getCause() != null) {
      t = t.getCause();
    }
    while (t.getCause() != null && t.getCause() != t && t.getCause().getMessage() != null) {
      t = t.getCause();
    }
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }
}
