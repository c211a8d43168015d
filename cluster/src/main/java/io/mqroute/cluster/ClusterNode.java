package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.mqroute.cluster.guard.ArteryGuard;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.cluster.link.NodeLoop;
import io.mqroute.cluster.link.NodeTransport;
import io.mqroute.cluster.sweep.SweepWork;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.wire.KryoSerializer;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.management.javadsl.PekkoManagement;
import org.apache.pekko.remote.RemoteActorRefProvider;
import org.apache.pekko.remote.RemoteTransport;
import org.apache.pekko.remote.artery.ArteryTransport;
import org.apache.pekko.serialization.SerializationExtension;
import org.slf4j.LoggerFactory;

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
    return start(settings, null);
  }

  /**
   * As {@link #start(NodeSettings)}; {@code work} is what a worker node does with a sweep's run
   * (null for the other roles).
   */
  public static Started start(NodeSettings settings, SweepWork work) {
    Config config = settings.toConfig();
    return start(settings.role(), config, work);
  }

  public static Started start(NodeSettings.Role role, Config config) {
    return start(role, config, null);
  }

  private static Started start(NodeSettings.Role role, Config config, SweepWork work) {
    // Checked before the system starts: Pekko would log the bind failure with a stack trace first
    String host = config.getString("pekko.remote.artery.canonical.hostname");
    ArteryGuard guard = null;
    if (config.getString("pekko.remote.artery.transport").equals("tcp")) {
      // Artery keeps compression tables per origin uid a frame names, and frees them only when an
      // association with that uid is quarantined: over unauthenticated tcp every stranger's
      // envelope with a new uid would hold tables for good (the fuzz test saw +35 MiB for 5,000
      // frames). Without compression there are none.
      config =
          ConfigFactory.parseString(
                  "pekko.remote.artery.advanced.compression.actor-refs.max = 0\n"
                      + "pekko.remote.artery.advanced.compression.manifests.max = 0")
              .withFallback(config);
    }
    if (config.getBoolean("mqroute.cluster.inbound.guard")) {
      // the guard takes Artery's bind address (the canonical one unless bind.* says otherwise, as
      // behind NAT); Artery binds a free loopback port behind it
      String bindHost = config.getString("pekko.remote.artery.bind.hostname");
      bindHost = bindHost.isEmpty() ? host : bindHost;
      guard = bindGuard(config, bindHost);
      int canonicalPort = config.getInt("pekko.remote.artery.canonical.port");
      config =
          ConfigFactory.parseString(
                  "pekko.remote.artery.canonical.port = "
                      + (canonicalPort == 0 ? guard.port() : canonicalPort)
                      + "\npekko.remote.artery.bind.port = 0\npekko.remote.artery.bind.hostname = \""
                      + (NodeSettings.isLoopback(bindHost) ? bindHost : "127.0.0.1")
                      + "\"")
              .withFallback(config);
    } else {
      requireFree(host, config.getInt("pekko.remote.artery.canonical.port"), "Artery");
    }
    boolean management =
        config.getInt("pekko.management.http.port") >= 0
            && (role != NodeSettings.Role.CLIENT
                || config.getBoolean("mqroute.cluster.client-management"));
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
    NodeLink link = null;
    EventLoopGroup loop = null;
    String loopKey = null;
    if (config.getBoolean("mqroute.cluster.link.enabled")) {
      // the node's one thread: its actors' dispatcher and the link's sockets (NodeLoop)
      loop =
          NodeTransport.loop(
              "mqroute-node",
              config.getBoolean("mqroute.cluster.link.native-epoll"),
              config.getDuration("mqroute.cluster.link.spin").toNanos());
      loopKey = NodeLoop.register(loop);
      link = NodeLink.bind(loop, host, linkSettings(config));
      List<String> roles = new ArrayList<>(config.getStringList("pekko.cluster.roles"));
      roles.add(link.role());
      config =
          ConfigFactory.parseString(
                  "pekko.actor.default-dispatcher.executor = \""
                      + NodeLoop.class.getName()
                      + "\"\npekko.actor.default-dispatcher.mqroute-loop = \""
                      + loopKey
                      + "\"")
              .withValue("pekko.cluster.roles", ConfigValueFactory.fromIterable(roles))
              .withFallback(config);
    }
    ActorSystem<Void> system;
    try {
      system = ActorSystem.create(NodeGuardian.create(role, work), "mqroute", config);
    } catch (RuntimeException e) {
      if (guard != null) {
        guard.close();
      }
      if (link != null) {
        link.close();
        stopLoop(loop, loopKey);
      }
      throw new NodeConfigException("cannot start the node: " + rootMessage(e));
    }
    if (link != null) {
      ActorSystem<Void> s = system;
      link.attach(
          system,
          () -> ActorRefResolver.get(s),
          (int) config.getBytes("mqroute.wire.max-message-size").longValue());
      NodeMetrics.get(system).inbound("link", link::counters, Map::of);
      EventLoopGroup l = loop;
      String k = loopKey;
      system.getWhenTerminated().thenRun(() -> stopLoop(l, k));
    }
    if (guard != null) {
      startGuard(system, guard);
    }
    countMalformed(system);
    NodeMetrics.get(system)
        .inbound("log", () -> Map.of("lines_held_back", PeerLogFilter.held()), Map::of);
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

  private static void stopLoop(EventLoopGroup loop, String key) {
    loop.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
    NodeLoop.unregister(key);
  }

  /** The guard's settings from {@code mqroute.cluster.inbound}, bound on the canonical address. */
  private static ArteryGuard bindGuard(Config config, String host) {
    Config in = config.getConfig("mqroute.cluster.inbound");
    String transport = config.getString("pekko.remote.artery.transport");
    Config advanced = config.getConfig("pekko.remote.artery.advanced");
    ArteryGuard.Settings settings =
        new ArteryGuard.Settings(
            in.getInt("max-connections"),
            in.getInt("max-pending"),
            in.getDuration("handshake-timeout"),
            in.getDuration("log-interval"),
            transport.equals("tls-tcp")
                ? ArteryGuard.Settings.tls()
                : ArteryGuard.Settings.arteryTcp(
                    advanced.getStringList("tcp-magic").stream()
                        .map(m -> m.getBytes(StandardCharsets.US_ASCII))
                        .toList(),
                    (int) advanced.getBytes("maximum-frame-size").longValue(),
                    // without large-message-destinations Artery drops whatever comes on that stream
                    config.getStringList("pekko.remote.artery.large-message-destinations").isEmpty()
                        ? 0
                        : (int) advanced.getBytes("maximum-large-frame-size").longValue()));
    String bindPort = config.getString("pekko.remote.artery.bind.port");
    int port =
        bindPort.isEmpty()
            ? config.getInt("pekko.remote.artery.canonical.port")
            : config.getInt("pekko.remote.artery.bind.port");
    try {
      return ArteryGuard.bind(host, port, settings);
    } catch (IOException e) {
      throw new NodeConfigException(
          "Artery port " + host + ":" + port + " is not free (" + e.getMessage() + ")");
    }
  }

  /** {@code mqroute.cluster.link.tls-provider}: true for openssl, false for jdk. */
  static boolean openSsl(Config link) {
    String p = link.getString("tls-provider");
    if (!p.equals("openssl") && !p.equals("jdk")) {
      throw new NodeConfigException(
          "mqroute.cluster.link.tls-provider must be openssl or jdk, was '" + p + "'");
    }
    return p.equals("openssl");
  }

  /** The link's TLS (Artery's keys and versions) and bounds (mqroute.cluster.link). */
  private static NodeLink.Settings linkSettings(Config config) {
    Config l = config.getConfig("mqroute.cluster.link");
    KeyManagerFactory kmf = null;
    TrustManagerFactory tmf = null;
    String[] protocols = {};
    String[] suites = {};
    if (config.getString("pekko.remote.artery.transport").equals("tls-tcp")) {
      Config e = config.getConfig("pekko.remote.artery.ssl.config-ssl-engine");
      try {
        KeyStore keys = store(e, "key-store");
        KeyStore trust = store(e, "trust-store");
        kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, e.getString("key-password").toCharArray());
        tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
      } catch (IOException | GeneralSecurityException ex) {
        throw new NodeConfigException("cannot read the cluster's keys for the node link: " + ex);
      }
      protocols = new String[] {e.getString("protocol")};
      suites = e.getStringList("enabled-algorithms").toArray(String[]::new);
    }
    return new NodeLink.Settings(
        kmf,
        tmf,
        protocols,
        suites,
        openSsl(l),
        l.getInt("max-connections"),
        l.getDuration("handshake-timeout"),
        (int) config.getBytes("pekko.remote.artery.advanced.maximum-frame-size").longValue());
  }

  /** The PKCS12 store the ssl engine names at {@code key}, opened with its {@code key-password}. */
  private static KeyStore store(Config engine, String key)
      throws IOException, GeneralSecurityException {
    KeyStore store = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(Path.of(engine.getString(key)))) {
      store.load(in, engine.getString(key + "-password").toCharArray());
    }
    return store;
  }

  /** The Kryo serializer's count of malformed messages, in /metrics. */
  private static void countMalformed(ActorSystem<Void> system) {
    Object serializer;
    try {
      serializer = SerializationExtension.get(system.classicSystem()).serializerFor(Request.class);
    } catch (Exception e) {
      return; // a test system without the protocol's bindings
    }
    if (serializer instanceof KryoSerializer kryo) {
      NodeMetrics.get(system).inbound("kryo", () -> Map.of("malformed", kryo.malformed()), Map::of);
    }
  }

  /** Relays to where Artery bound, for as long as the system runs; counters in /metrics. */
  private static void startGuard(ActorSystem<Void> system, ArteryGuard guard) {
    RemoteTransport transport =
        ((RemoteActorRefProvider) ((ExtendedActorSystem) system.classicSystem()).provider())
            .transport();
    Address bound = ((ArteryTransport) transport).bindAddress().address();
    try {
      guard.start(new InetSocketAddress(bound.getHost().get(), bound.getPort().get()));
    } catch (IOException e) {
      guard.close();
      throw new NodeConfigException("cannot start the Artery guard: " + e.getMessage());
    }
    NodeMetrics.get(system)
        .inbound(
            "artery",
            guard::counters,
            () ->
                Map.of(
                    "open",
                    (long) guard.openConnections(),
                    "pending",
                    (long) guard.pendingConnections()));
    system.getWhenTerminated().thenRun(guard::close);
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

  /**
   * How long the system's coordinated shutdown may take: the sum of its phases' timeouts (each may
   * run to its bound when the cluster is slow to converge on a loaded machine), plus a margin for
   * the actor system's own stop.
   */
  public static Duration shutdownBound(ActorSystem<?> system) {
    return Duration.ofMillis(
            CoordinatedShutdown.get(system.classicSystem()).totalTimeout().toMillis())
        .plusSeconds(10);
  }

  /**
   * How long a node whose coordinated shutdown has finished (its actors stopped) may still take to
   * terminate before {@link #awaitTermination} gives up on it: Artery's flush and its streams'
   * stop.
   */
  static final Duration ARTERY_STOP_GRACE = Duration.ofSeconds(5);

  /**
   * Waits until a node whose shutdown has begun has stopped: its system terminated, or its
   * coordinated shutdown finished (every phase ran or timed out, so its actors have stopped) and
   * {@link #ARTERY_STOP_GRACE} passed. Pekko 1.7's Artery can wait without a deadline for a stalled
   * remoting stream at termination (apache/pekko#3247, bounded by {@code shutdown-streams-timeout}
   * only after 1.7.0): on a loaded 2-core CI machine a node's {@code whenTerminated} then never
   * completed although nothing of the node ran any more. False if neither happened within {@code
   * timeout}.
   */
  public static boolean awaitTermination(ActorSystem<?> system, Duration timeout) {
    CompletableFuture<?> terminated = system.getWhenTerminated().toCompletableFuture();
    CoordinatedShutdown cs = CoordinatedShutdown.get(system.classicSystem());
    // runAll(reason) after the shutdown has begun returns the run in progress, it starts nothing
    CompletableFuture<Object> phasesThenGrace =
        cs.getShutdownReason()
            .map(
                reason ->
                    cs.runAll(reason)
                        .toCompletableFuture()
                        .<Object>thenCompose(
                            done ->
                                terminated
                                    .<Object>thenApply(t -> t)
                                    .completeOnTimeout(
                                        ARTERY_STOP_GRACE,
                                        ARTERY_STOP_GRACE.toMillis(),
                                        TimeUnit.MILLISECONDS)))
            .orElseGet(CompletableFuture::new);
    try {
      Object how =
          CompletableFuture.anyOf(terminated, phasesThenGrace)
              .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      if (how == ARTERY_STOP_GRACE) {
        LoggerFactory.getLogger(ClusterNode.class)
            .warn(
                "node {}: shutdown finished, the actor system still terminating after {} ms"
                    + " (Artery's streams; apache/pekko#3247): not waiting for it",
                system.name(),
                ARTERY_STOP_GRACE.toMillis());
      }
      return true;
    } catch (ExecutionException e) {
      return true; // a failed run or termination has ended too
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (TimeoutException e) {
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
