package io.mqroute.cli;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.mqroute.cluster.NodeMetrics;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.cluster.load.LoadRunner;
import io.mqroute.config.UserError;
import io.mqroute.nbd.NbdServer;
import io.mqroute.nbd.NbdServerSettings;
import io.mqroute.nbd.RouterBackend;
import io.mqroute.protocol.Request;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code mqroute node --role host --nbd HOST:PORT --export-size SIZE}: the host node's NBD server,
 * whose one export is file {@link #FILE_ID} on the router's devices (see {@link RouterBackend}).
 * Checked before the node starts (one line, exit 2): host role only, a loopback address unless the
 * node's config sets {@code mqroute.cluster.allow-non-loopback = on}, a free port, and an export no
 * larger than {@code mqroute.cluster.device.file-max-bytes} (a device's file backend refuses
 * offsets past it).
 */
final class NbdFrontend {
  /** The file the export is on. */
  static final long FILE_ID = 0;

  private NbdFrontend() {}

  /** What was asked for, checked. */
  record Plan(NbdServerSettings settings, long exportSize) {}

  /**
   * @param nbd {@code HOST:PORT} or a bare port (127.0.0.1)
   * @param exportSize a HOCON size ({@code 1g}, {@code 512MiB}, {@code 1073741824})
   * @param nodeConfig the node's whole configuration (flags, file and defaults)
   */
  static Plan plan(String nbd, String exportSize, boolean hostRole, Config nodeConfig) {
    if (!hostRole) {
      throw new UserError("--nbd: only a host node (--role host or host+device) serves NBD");
    }
    String host = "127.0.0.1";
    String port = nbd;
    int colon = nbd.lastIndexOf(':');
    if (colon >= 0) {
      host = nbd.substring(0, colon);
      port = nbd.substring(colon + 1);
      if (host.startsWith("[") && host.endsWith("]")) {
        host = host.substring(1, host.length() - 1);
      }
    }
    int p;
    try {
      p = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      throw new UserError("--nbd " + nbd + ": expected HOST:PORT or PORT, e.g. 127.0.0.1:10809");
    }
    if (p < 1 || p > 65535 || host.isEmpty()) {
      throw new UserError("--nbd " + nbd + ": expected HOST:PORT with a port 1..65535");
    }
    if (!NbdServerSettings.isLoopback(host)
        && !nodeConfig.getBoolean("mqroute.cluster.allow-non-loopback")) {
      throw new UserError(
          "--nbd "
              + nbd
              + ": "
              + host
              + " is not a loopback address; NBD has no authentication: set "
              + "mqroute.cluster.allow-non-loopback = on in the node's --config to listen there");
    }
    long size = parseSize(exportSize);
    long max = nodeConfig.getBytes("mqroute.cluster.device.file-max-bytes");
    if (size > max) {
      throw new UserError(
          "--export-size "
              + exportSize
              + " is over mqroute.cluster.device.file-max-bytes ("
              + max
              + " bytes), the most a device's file backend holds in one file");
    }
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress(host, p));
    } catch (IOException e) {
      throw new UserError("--nbd " + nbd + ": the port is not free (" + e.getMessage() + ")");
    }
    return new Plan(settings(nodeConfig, host, p), size);
  }

  /** The server's bounds from {@code mqroute.nbd} (nbd's reference.conf documents them). */
  static NbdServerSettings settings(Config nodeConfig, String host, int port) {
    String p = "mqroute.nbd.";
    try {
      // full paths, so that Typesafe's own messages name the key as the node file writes it
      int maxConnections = positive(nodeConfig, p + "max-connections", 4096);
      int maxInFlight = positive(nodeConfig, p + "max-in-flight", 65536);
      int maxOptions = positive(nodeConfig, p + "max-options", 4096);
      Duration timeout = nodeConfig.getDuration(p + "handshake-timeout");
      if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofHours(1)) > 0) {
        throw new UserError(
            p
                + "handshake-timeout must be in 1ms..1h, was "
                + nodeConfig.getString(p + "handshake-timeout"));
      }
      return new NbdServerSettings(
          host, port, "", maxInFlight, maxConnections, timeout, maxOptions);
    } catch (ConfigException e) {
      throw new UserError(e.getMessage());
    }
  }

  private static int positive(Config c, String key, int max) {
    long v = c.getLong(key);
    if (v < 1 || v > max) {
      throw new UserError(key + " must be in 1.." + max + ", was " + c.getString(key));
    }
    return (int) v;
  }

  static long parseSize(String value) {
    long size;
    try {
      size =
          ConfigFactory.empty().withValue("s", ConfigValueFactory.fromAnyRef(value)).getBytes("s");
    } catch (ConfigException e) {
      throw new UserError(
          "--export-size " + value + ": expected a size such as 1g, 512MiB or 1073741824");
    }
    if (size < 1) {
      throw new UserError("--export-size " + value + ": must be at least 1 byte");
    }
    return size;
  }

  /**
   * Finds this node's host router and starts the server in front of it; it stops in the node's
   * coordinated shutdown, before the node leaves the cluster. Returns the server.
   */
  static NbdServer start(ActorSystem<?> system, Plan plan) {
    ActorRef<Request> router;
    try {
      List<ActorRef<Request>> routers = LoadRunner.awaitRouters(system, Duration.ofSeconds(30));
      router =
          routers.stream()
              .filter(r -> r.path().address().hasLocalScope())
              .findFirst()
              .orElseThrow(() -> new UserError("--nbd: this node has no host router"));
    } catch (UserError e) {
      throw e;
    } catch (Exception e) {
      throw new UserError("--nbd: this node's host router did not start: " + e.getMessage());
    }
    NbdServer server;
    try {
      server =
          NbdServer.start(
                  plan.settings(),
                  new RouterBackend(system, router, plan.exportSize(), FILE_ID),
                  // the node's own loop: a request read from the socket reaches the router there
                  NodeLink.attached(system).map(NodeLink::loop).orElse(null))
              .toCompletableFuture()
              .get(30, TimeUnit.SECONDS);
    } catch (Exception e) {
      throw new UserError(
          "--nbd "
              + plan.settings().host()
              + ":"
              + plan.settings().port()
              + ": cannot listen: "
              + e.getMessage());
    }
    NodeMetrics.get(system).inbound("nbd", server::counters, server::gauges);
    CoordinatedShutdown.get(system)
        .addTask(
            CoordinatedShutdown.PhaseServiceUnbind(),
            "nbd-unbind",
            () -> server.closeAsync().thenApply(v -> Done.getInstance()));
    return server;
  }
}
