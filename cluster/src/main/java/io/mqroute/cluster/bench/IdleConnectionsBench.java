package io.mqroute.cluster.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.ClusterKeys;
import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeSettings;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * What idle inbound connections cost a node (issue #15 item 3: "500 idle connections were all held
 * open"): one node over mutual TLS, then {@code n} connections to its Artery port that never send a
 * byte, from this JVM; prints the heap after GC, threads and file descriptors before and after
 * (minus the {@code n} client sockets' own descriptors), and how many the node still held after the
 * handshake timeout. Run with the guard on (the default) and with {@code
 * -Dmqroute.cluster.inbound.guard=off} (Pekko alone). Numbers are printed, never asserted.
 *
 * <p>{@code java -cp cli/target/mqroute.jar io.mqroute.cluster.bench.IdleConnectionsBench 500}
 */
public final class IdleConnectionsBench {
  private IdleConnectionsBench() {}

  public static void main(String[] args) throws Exception {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 500;
    Path keys = Files.createTempDirectory("mqroute-idle").resolve("keys");
    ClusterKeys.create(keys);
    Config c =
        ConfigFactory.parseString(
                """
            pekko.remote.artery.canonical.port = 0
            pekko.cluster.seed-nodes = []
            pekko.cluster.roles = [device]
            pekko.coordinated-shutdown.exit-jvm = off
            pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
            pekko.management.http.port = -1
            pekko.loglevel = ERROR
            """)
            .withFallback(ClusterKeys.artery(keys))
            .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
            .withFallback(ConfigFactory.load())
            .resolve();
    ActorSystem<Void> node = ClusterNode.start(NodeSettings.Role.DEVICE, c).system();
    int port = node.address().getPort().get();
    boolean guard = c.getBoolean("mqroute.cluster.inbound.guard");
    Duration timeout = c.getDuration("mqroute.cluster.inbound.handshake-timeout");
    try {
      Thread.sleep(2_000); // a benchmark: let the node settle before the baseline
      long heap0 = heap();
      int threads0 = ManagementFactory.getThreadMXBean().getThreadCount();
      int fds0 = fds();
      List<Socket> idle = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        Socket s = new Socket();
        try {
          s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        } catch (IOException refused) {
          // counted below as not held
        }
        idle.add(s);
      }
      Thread.sleep(3_000);
      long heap1 = heap();
      int threads1 = ManagementFactory.getThreadMXBean().getThreadCount();
      int fds1 = fds() - n;
      System.out.printf(
          Locale.ROOT,
          "guard %s, %d idle connections: heap after GC %+.1f MiB (%.1f KiB each), threads %+d,"
              + " node-side fds %+d; open after 3 s: %d%n",
          guard ? "on" : "off",
          n,
          (heap1 - heap0) / 1048576.0,
          (heap1 - heap0) / 1024.0 / n,
          threads1 - threads0,
          fds1 - fds0,
          stillOpen(idle));
      Thread.sleep(timeout.toMillis() + 2_000);
      System.out.printf(
          Locale.ROOT,
          "after the handshake timeout (%d ms): %d of %d still open, node-side fds %+d%n",
          timeout.toMillis(),
          stillOpen(idle),
          n,
          fds() - n - fds0);
      for (Socket s : idle) {
        s.close();
      }
    } finally {
      node.terminate();
      ClusterNode.awaitTermination(node, Duration.ofSeconds(30));
    }
    System.exit(0);
  }

  private static long heap() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static int fds() {
    String[] l = new File("/proc/self/fd").list();
    return l == null ? -1 : l.length;
  }

  /** Connections the node has not closed: a read that times out instead of ending. */
  private static int stillOpen(List<Socket> sockets) throws IOException {
    int open = 0;
    for (Socket s : sockets) {
      if (!s.isConnected() || s.isClosed()) {
        continue;
      }
      s.setSoTimeout(1);
      try {
        InputStream in = s.getInputStream();
        if (in.read() >= 0) {
          open++; // the node sent something and is still there
        }
      } catch (java.net.SocketTimeoutException stillThere) {
        open++;
      } catch (IOException reset) {
        // closed
      }
    }
    return open;
  }
}
