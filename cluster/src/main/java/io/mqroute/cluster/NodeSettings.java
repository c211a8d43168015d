package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigValueFactory;
import io.mqroute.config.ConfigError;
import io.mqroute.config.FileIncluder;
import io.mqroute.policies.selector.Selectors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * What {@code mqroute node} and {@code mqroute load} are told on the command line, and the
 * configuration they make of it: the flags over {@code --config FILE} over the node defaults
 * ({@code mqroute-node.conf}) over the class path's {@code reference.conf} files.
 *
 * <p>Every mistake is a {@link NodeConfigException} with one line that names the flag, file or key.
 *
 * @param role host, device or client
 * @param port Artery port, 0 for any free one
 * @param seeds {@code host:port} of the seed nodes (empty: the config's seed list, or a new
 *     cluster)
 * @param configFile a HOCON file under the flags, or null
 * @param dataDir device only: the file backend's root (created if missing), or null for the
 *     config's backend
 * @param managementPort Pekko Management's HTTP port; -1: the config's (default: port + 1000), 0:
 *     any free one
 * @param firstQueue device only: index of the first queue, or -1 for the config's
 * @param keys the cluster's keys ({@link ClusterKeys}) for Artery over mutual TLS, or null for the
 *     config's stores
 * @param plainTcp Artery over plain TCP, unauthenticated: loopback only, an explicit opt-in
 */
public record NodeSettings(
    Role role,
    int port,
    List<String> seeds,
    Path configFile,
    Path dataDir,
    int managementPort,
    int firstQueue,
    Path keys,
    boolean plainTcp) {
  /** What a node runs. */
  public enum Role {
    /** The router and the client entry. */
    HOST,
    /** Device queues and a device backend. */
    DEVICE,
    /** Runs of sweeps ({@code mqroute run --cluster}) on its cores. */
    WORKER,
    /** A load or sweep client: joins, routes nothing, serves nothing. */
    CLIENT,
    /**
     * Host and device in one process (a single machine in front of its own storage, as virtiofsd's
     * queues lead to one file system): the router's queues on this node are local actors, reached
     * without the node link; other devices can still join.
     */
    HOST_DEVICE;

    public String configName() {
      return this == HOST_DEVICE ? "host+device" : name().toLowerCase(Locale.ROOT);
    }

    /** The node's {@code pekko.cluster.roles}. */
    public List<String> clusterRoles() {
      return this == HOST_DEVICE ? List.of("host", "device") : List.of(configName());
    }

    /** Runs the router and the client entry. */
    public boolean routes() {
      return this == HOST || this == HOST_DEVICE;
    }

    /** Runs device queues. */
    public boolean serves() {
      return this == DEVICE || this == HOST_DEVICE;
    }

    /**
     * host, device, host+device or worker (a client is started by {@code mqroute load} or {@code
     * mqroute run --cluster}, not by {@code mqroute node}).
     */
    public static Role ofNode(String name) {
      return switch (name == null ? "" : name.trim().toLowerCase(Locale.ROOT)) {
        case "host" -> HOST;
        case "device" -> DEVICE;
        case "worker" -> WORKER;
        case "host+device", "host,device", "device+host", "device,host" -> HOST_DEVICE;
        default ->
            throw new NodeConfigException(
                "--role must be host, device, host+device or worker, was '" + name + "'");
      };
    }
  }

  public NodeSettings {
    Objects.requireNonNull(role, "role");
    seeds = List.copyOf(seeds);
    if (port < 0 || port > 65535) {
      throw new NodeConfigException("--port must be in 0..65535, was " + port);
    }
    if (managementPort < -1 || managementPort > 65535) {
      throw new NodeConfigException("--management-port must be in 0..65535, was " + managementPort);
    }
    for (String s : seeds) {
      seedAddress(s);
    }
    if (dataDir != null && !role.serves()) {
      throw new NodeConfigException("--data is for --role device or host+device only");
    }
    if (keys != null && plainTcp) {
      throw new NodeConfigException("--keys and --plain-tcp exclude each other");
    }
  }

  /**
   * Parses a {@code --seeds} value: comma-separated {@code host:port} (a bare port means
   * 127.0.0.1).
   */
  public static List<String> parseSeeds(String value) {
    List<String> out = new ArrayList<>();
    if (value == null || value.isBlank()) {
      return out;
    }
    for (String part : value.split(",")) {
      String s = part.trim();
      if (s.isEmpty()) {
        continue;
      }
      if (!s.contains(":")) {
        s = "127.0.0.1:" + s;
      }
      seedAddress(s);
      out.add(s);
    }
    return out;
  }

  /** {@code host:port} as a Pekko address of the {@code mqroute} system. */
  static String seedAddress(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    String host = colon < 0 ? "" : hostPort.substring(0, colon);
    String port = colon < 0 ? "" : hostPort.substring(colon + 1);
    int p;
    try {
      p = Integer.parseInt(port);
    } catch (NumberFormatException e) {
      p = -1;
    }
    if (host.isEmpty() || p < 1 || p > 65535 || !host.matches("[A-Za-z0-9.\\-\\[\\]:]+")) {
      throw new NodeConfigException(
          "--seeds: '" + hostPort + "' is not host:port (e.g. 127.0.0.1:25520)");
    }
    return "pekko://mqroute@" + host + ":" + p;
  }

  /** Largest node file (and each file it includes). */
  static final long MAX_CONFIG_BYTES = 1L << 20;

  /**
   * How long a load client's leave phases may take (its run has ended; it holds nothing). With its
   * host killed the cluster cannot converge, so cluster-exiting always runs to this bound.
   */
  static final String CLIENT_LEAVE_TIMEOUT = "500ms";

  /** How long a load client's Artery waits to flush to peers at exit (a dead host never acks). */
  static final String CLIENT_FLUSH_TIMEOUT = "300ms";

  /**
   * The role a node file names in {@code pekko.cluster.roles} (host or device), for {@code mqroute
   * node} without {@code --role}.
   */
  public static Role roleOf(Path configFile) {
    if (configFile == null) {
      throw new NodeConfigException(
          "missing --role host|device|worker (or a --config file that sets pekko.cluster.roles)");
    }
    List<String> roles = roles(readFile(configFile), configFile);
    List<String> node =
        roles.stream()
            .filter(r -> r.equals("host") || r.equals("device") || r.equals("worker"))
            .distinct()
            .toList();
    if (node.size() == 2 && node.containsAll(Role.HOST_DEVICE.clusterRoles())) {
      return Role.HOST_DEVICE;
    }
    if (node.size() != 1) {
      throw new NodeConfigException(
          "--config "
              + configFile
              + " sets pekko.cluster.roles = "
              + roles
              + ", not one of host, device, host+device or worker: give --role"
              + " host|device|host+device|worker");
    }
    return Role.ofNode(node.get(0));
  }

  /**
   * The file's {@code pekko.cluster.roles}, empty when it sets none or only through a substitution
   * it cannot resolve alone (the whole configuration resolves it later; then the flag's role is
   * taken as it is).
   */
  private static List<String> roles(Config file, Path configFile) {
    try {
      Config resolved = file.resolve(ConfigResolveOptions.defaults().setAllowUnresolved(true));
      return resolved.hasPath("pekko.cluster.roles")
          ? resolved.getStringList("pekko.cluster.roles")
          : List.of();
    } catch (ConfigException.NotResolved e) {
      return List.of();
    } catch (ConfigException e) {
      throw new NodeConfigException("--config " + configFile + ": " + e.getMessage());
    } catch (StackOverflowError e) {
      // the resolver recurses once per ${...} link (see FileIncluder#resolve)
      throw new NodeConfigException(
          "--config "
              + configFile
              + ": substitutions (${...}) refer to each other too deeply to resolve");
    }
  }

  /** A node file: bounded, regular files only (includes too), no include url(...). */
  private static Config readFile(Path configFile) {
    if (!Files.isRegularFile(configFile)) {
      throw new NodeConfigException("--config " + configFile + ": no such file");
    }
    try {
      // read before anything else runs: it must not make the node fetch from the network
      return FileIncluder.parse(configFile, MAX_CONFIG_BYTES).toConfig();
    } catch (ConfigError e) {
      throw new NodeConfigException("--config " + e.getMessage());
    } catch (ConfigException e) {
      throw new NodeConfigException("--config " + configFile + ": " + e.getMessage());
    }
  }

  /** The node's whole configuration, resolved and checked. */
  public Config toConfig() {
    Config file = configFile == null ? ConfigFactory.empty() : readFile(configFile);
    List<String> roles = roles(file, configFile);
    if (!roles.isEmpty() && !roles.containsAll(role.clusterRoles())) {
      throw new NodeConfigException(
          "--role "
              + role.configName()
              + " but --config "
              + configFile
              + " sets pekko.cluster.roles = "
              + roles
              + "; drop one of them");
    }
    Config flags = set(ConfigFactory.empty(), "pekko.cluster.roles", role.clusterRoles());
    // an explicit --port wins; without a config file that sets one, 0 means any free port
    if (port != 0 || !file.hasPath("pekko.remote.artery.canonical.port")) {
      flags = set(flags, "pekko.remote.artery.canonical.port", port);
    }
    if (!seeds.isEmpty()) {
      flags =
          set(
              flags,
              "pekko.cluster.seed-nodes",
              seeds.stream().map(NodeSettings::seedAddress).toList());
    }
    if (managementPort >= 0) {
      flags = set(flags, "pekko.management.http.port", managementPort);
    } else if (!file.hasPath("pekko.management.http.port") && port != 0) {
      flags = set(flags, "pekko.management.http.port", port + 1000 <= 65535 ? port + 1000 : 0);
    }
    if (role == Role.CLIENT && managementPort >= 0) {
      flags = set(flags, "mqroute.cluster.client-management", true);
    }
    if (role == Role.CLIENT) {
      // a load client ends when its run does, and its command returns the exit code: never exit the
      // JVM itself
      // and it holds nothing to hand over: its leave may take a second, not the 10 s per phase a
      // member gets (a lost host never lets the leave converge, and the run has ended already)
      flags = set(flags, "pekko.coordinated-shutdown.exit-jvm", "off");
      flags =
          set(
              flags,
              "pekko.coordinated-shutdown.phases.cluster-leave.timeout",
              CLIENT_LEAVE_TIMEOUT);
      flags =
          set(
              flags,
              "pekko.coordinated-shutdown.phases.cluster-exiting.timeout",
              CLIENT_LEAVE_TIMEOUT);
      flags =
          set(flags, "pekko.remote.artery.advanced.shutdown-flush-timeout", CLIENT_FLUSH_TIMEOUT);
    }
    if (firstQueue >= 0) {
      flags = set(flags, "mqroute.cluster.device.first-queue", firstQueue);
    }
    if (dataDir != null) {
      try {
        Files.createDirectories(dataDir);
      } catch (IOException e) {
        throw new NodeConfigException(
            "--data " + dataDir + ": cannot create the directory (" + e + ")");
      }
      flags = set(flags, "mqroute.cluster.device.backend", "file");
      flags = set(flags, "mqroute.cluster.device.file-root", dataDir.toAbsolutePath().toString());
    }
    if (keys != null) {
      flags = flags.withFallback(ClusterKeys.artery(keys));
    } else if (plainTcp) {
      flags = set(flags, "pekko.remote.artery.transport", "tcp");
    }
    Config all;
    try {
      // a chain of ${...} too deep to resolve is one line, not a StackOverflowError
      all =
          FileIncluder.resolve(
              flags
                  .withFallback(file)
                  .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
                  .withFallback(ConfigFactory.load()),
              configFile != null ? configFile.toString() : "the node's settings");
      check(all);
      checkProtections(file, all);
    } catch (NodeConfigException e) {
      throw e;
    } catch (ConfigError | ConfigException | IllegalArgumentException e) {
      // IllegalArgumentException: a settings record refused a value (e.g. an unknown selector name)
      throw new NodeConfigException(
          (configFile != null ? "--config " + configFile + ": " : "") + e.getMessage());
    }
    return all;
  }

  /** {@code flags} with {@code value} (a list for an Iterable) at {@code path}. */
  private static Config set(Config flags, String path, Object value) {
    return flags.withValue(path, ConfigValueFactory.fromAnyRef(value));
  }

  /**
   * A node that listens on loopback only can never reach a seed on another host, and it would only
   * find out by retrying for ever (or until shutdown-after-unsuccessful-join-seed-nodes): refuse
   * such seeds now.
   */
  private static void checkSeedsReachable(Config c) {
    String self = c.getString("pekko.remote.artery.canonical.hostname");
    if (!isLoopback(self)) {
      return;
    }
    for (String seed : c.getStringList("pekko.cluster.seed-nodes")) {
      String hostPort = seed.substring(seed.indexOf('@') + 1);
      String host = hostPort.substring(0, Math.max(0, hostPort.lastIndexOf(':')));
      if (!isLoopback(host)) {
        throw new NodeConfigException(
            "--seeds: "
                + hostPort
                + " is not a loopback address, but this node "
                + "listens on "
                + self
                + " only (pekko.remote.artery.canonical.hostname) and could never join it");
      }
    }
  }

  /**
   * 127.0.0.0/8, ::1 and localhost, decided from the text (an IP literal, or the one name that is
   * loopback by definition): other names would need a DNS lookup, and are not loopback addresses on
   * a loopback-only node.
   */
  static boolean isLoopback(String host) {
    String h = host.trim().toLowerCase(Locale.ROOT);
    if (h.startsWith("[") && h.endsWith("]")) {
      h = h.substring(1, h.length() - 1);
    }
    if (h.equals("localhost") || h.equals("::1") || h.equals("0:0:0:0:0:0:0:1")) {
      return true;
    }
    return h.matches("127(\\.\\d{1,3}){3}");
  }

  /**
   * Largest {@code file-count}: the disk budget is file-count x file-max-bytes, keep it a
   * deliberate choice.
   */
  static final int MAX_FILE_COUNT = 1 << 20;

  /**
   * A node file must not quietly turn off what keeps an unauthenticated transport tolerable: Java
   * serialization stays off (no binding to Pekko's JavaSerializer either), and Artery and
   * management listen on loopback unless the file opts in with {@code
   * mqroute.cluster.allow-non-loopback = on}.
   */
  private static void checkProtections(Config file, Config all) {
    if (all.getBoolean("pekko.actor.allow-java-serialization")) {
      throw new NodeConfigException(
          "pekko.actor.allow-java-serialization = on is refused: mqroute nodes accept "
              + "Kryo with registered classes only");
    }
    if (file.hasPath("pekko.actor.serialization-bindings")) {
      for (var e : file.getObject("pekko.actor.serialization-bindings").entrySet()) {
        String name = String.valueOf(e.getValue().unwrapped());
        String path = "pekko.actor.serializers.\"" + name + "\"";
        String cls = all.hasPath(path) ? all.getString(path) : "";
        if (name.equals("java") || cls.equals("org.apache.pekko.serialization.JavaSerializer")) {
          throw new NodeConfigException(
              "pekko.actor.serialization-bindings: \""
                  + e.getKey()
                  + "\" is bound to Java serialization, which mqroute nodes refuse");
        }
      }
    }
    String transport = all.getString("pekko.remote.artery.transport");
    String engine = "pekko.remote.artery.ssl.config-ssl-engine.";
    if (transport.equals("tls-tcp")
        && (all.getString(engine + "key-store").isEmpty()
            || all.getString(engine + "trust-store").isEmpty())) {
      throw new NodeConfigException(
          "Artery runs over mutual TLS: give --keys DIR (create the cluster's keys once with "
              + "'mqroute keys DIR' and copy DIR to every node), or --plain-tcp on loopback only");
    }
    if (all.getBoolean("mqroute.cluster.allow-non-loopback")) {
      if (transport.equals("tcp")) {
        throw new NodeConfigException(
            "mqroute.cluster.allow-non-loopback = on needs Artery over mutual TLS (--keys DIR): "
                + "plain tcp is unauthenticated and for loopback only");
      }
      return;
    }
    for (String key :
        List.of(
            "pekko.remote.artery.canonical.hostname",
            "pekko.remote.artery.bind.hostname",
            "pekko.management.http.hostname",
            "pekko.management.http.bind-hostname")) {
      String host = all.hasPath(key) ? all.getString(key) : "";
      if (!host.isEmpty() && !isLoopback(host)) {
        throw new NodeConfigException(
            key
                + " = "
                + host
                + " is not a loopback address; management is unauthenticated (and plain tcp "
                + "too): set mqroute.cluster.allow-non-loopback = on, with --keys, to listen there");
      }
    }
  }

  /** Largest queues / max-queues: routing state is allocated per slot up front. */
  static final int MAX_QUEUES = 1024;

  /** Largest ring-size / queue-window. */
  public static final int MAX_WINDOW = 65536;

  /**
   * Largest file-max-bytes: 1 TiB, far above any test disk; a typo (an extra unit) should not pass.
   */
  static final long MAX_FILE_BYTES = 1L << 40;

  /** Largest service-delay: a day; Pekko's scheduler refuses delays of months at run time. */
  static final Duration MAX_SERVICE_DELAY = Duration.ofHours(24);

  /** {@code key} as a number in [min, max], or a one-line error naming it. */
  private static long range(Config c, String prefix, String key, long min, long max) {
    long v;
    try {
      v = c.getLong(key);
    } catch (ConfigException.WrongType e) {
      throw new NodeConfigException(
          prefix + key + " must be a number, was " + c.getValue(key).render());
    }
    if (v < min || v > max) {
      throw new NodeConfigException(
          prefix + key + " must be in " + min + ".." + max + ", was " + v);
    }
    return v;
  }

  /** {@code key} as a duration in [min, max] (written {@code range}), or a one-line error. */
  private static void checkDuration(
      Config c, String prefix, String key, Duration min, Duration max, String range) {
    Duration v = c.getDuration(key);
    if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
      throw new NodeConfigException(
          prefix + key + " must be in " + range + ", was " + c.getString(key));
    }
  }

  /** Values the node would only trip over later, checked now. */
  private static void check(Config c) {
    ClusterNode.openSsl(c.getConfig("mqroute.cluster.link"));
    checkDuration(
        c, "", "mqroute.cluster.link.spin", Duration.ZERO, Duration.ofMillis(1), "0s..1ms");
    Config d = c.getConfig("mqroute.cluster.device");
    String backend = d.getString("backend");
    if (!backend.equals("null") && !backend.equals("file")) {
      throw new NodeConfigException(
          "mqroute.cluster.device.backend must be null or file, was '" + backend + "'");
    }
    long queues = range(d, "mqroute.cluster.device.", "queues", 1, MAX_QUEUES);
    range(c.getConfig("mqroute.cluster.worker"), "mqroute.cluster.worker.", "slots", 0, 4096);
    range(d, "mqroute.cluster.device.", "ring-size", 1, MAX_WINDOW);
    range(d, "mqroute.cluster.device.", "first-queue", 0, Integer.MAX_VALUE - queues);
    if (backend.equals("file") && !Files.isDirectory(Path.of(d.getString("file-root")))) {
      throw new NodeConfigException(
          "mqroute.cluster.device.file-root '"
              + d.getString("file-root")
              + "' is not a directory (or give --data DIR)");
    }
    try {
      DeviceQueue.Settings.fileIo(d);
    } catch (IllegalArgumentException e) {
      throw new NodeConfigException(e.getMessage());
    }
    DeviceRules.fromConfig(d); // full-ring, enqueue-error, enomem-probability, dispatch, seed
    checkDuration(
        d,
        "mqroute.cluster.device.",
        "service-delay",
        Duration.ZERO,
        MAX_SERVICE_DELAY,
        "0s.." + MAX_SERVICE_DELAY.toHours() + "h");
    long fileMax = d.getBytes("file-max-bytes");
    if (fileMax <= 0 || fileMax > MAX_FILE_BYTES) {
      throw new NodeConfigException(
          "mqroute.cluster.device.file-max-bytes must be in 1..1TiB, was "
              + d.getString("file-max-bytes"));
    }
    if (backend.equals("file")) {
      // the backend's own checks of its root (a real directory owned by this user), as one line now
      try {
        new FileBackend(Path.of(d.getString("file-root")), fileMax, 1, 1).close();
      } catch (IllegalArgumentException e) {
        throw new NodeConfigException("mqroute.cluster.device.file-root: " + e.getMessage());
      }
    }
    int fileCount = d.getInt("file-count");
    if (fileCount < 1 || fileCount > MAX_FILE_COUNT) {
      throw new NodeConfigException(
          "mqroute.cluster.device.file-count must be in 1.."
              + MAX_FILE_COUNT
              + ", was "
              + fileCount);
    }
    Config h = c.getConfig("mqroute.cluster.host");
    range(h, "mqroute.cluster.host.", "max-queues", 1, MAX_QUEUES);
    range(h, "mqroute.cluster.host.", "queue-window", 1, MAX_WINDOW);
    HostRouterSettings host = HostRouterSettings.fromConfig(h);
    try {
      Selectors.create(host.selector());
    } catch (RuntimeException e) {
      throw new NodeConfigException("mqroute.cluster.host.selector: " + e.getMessage());
    }
    Config in = c.getConfig("mqroute.cluster.inbound");
    in.getBoolean("guard");
    long maxConnections = range(in, "mqroute.cluster.inbound.", "max-connections", 1, 65536);
    range(in, "mqroute.cluster.inbound.", "max-pending", 1, maxConnections);
    for (String key : List.of("handshake-timeout", "log-interval")) {
      checkDuration(
          in, "mqroute.cluster.inbound.", key, Duration.ofNanos(1), Duration.ofHours(1), "1ms..1h");
    }
    checkSeedsReachable(c);
    String transport = c.getString("pekko.remote.artery.transport");
    if (!transport.equals("tcp") && !transport.equals("tls-tcp")) {
      throw new NodeConfigException(
          "pekko.remote.artery.transport must be tcp (or tls-tcp), was " + transport);
    }
  }
}
