package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import io.mqroute.policies.strategy.BackgroundAdmission;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flags over --config over the node defaults, and what the node defaults promise (architecture.md
 * §5a).
 */
class NodeSettingsTest {
  private static NodeSettings host(int port, String seeds, Path config) {
    return new NodeSettings(
        NodeSettings.Role.HOST,
        port,
        NodeSettings.parseSeeds(seeds),
        config,
        null,
        -1,
        -1,
        null,
        true);
  }

  @Test
  void flagsBecomeRolePortSeedsAndManagementPortPlus1000() {
    Config c = host(25520, "127.0.0.1:25520,25521", null).toConfig();
    assertThat(c.getStringList("pekko.cluster.roles")).containsExactly("host");
    assertThat(c.getInt("pekko.remote.artery.canonical.port")).isEqualTo(25520);
    assertThat(c.getStringList("pekko.cluster.seed-nodes"))
        .containsExactly("pekko://mqroute@127.0.0.1:25520", "pekko://mqroute@127.0.0.1:25521");
    assertThat(c.getInt("pekko.management.http.port")).isEqualTo(26520);
  }

  @Test
  void theNodeDefaultsAreLoopbackArteryOverMutualTlsWithSbrAndCoordinatedShutdown() {
    Config c =
        new NodeSettings(
                NodeSettings.Role.HOST, 0, List.of(), null, null, -1, -1, TestKeys.dir(), false)
            .toConfig();
    assertThat(c.getString("pekko.actor.provider")).isEqualTo("cluster");
    assertThat(c.getString("pekko.remote.artery.transport")).isEqualTo("tls-tcp");
    assertThat(
            c.getBoolean("pekko.remote.artery.ssl.config-ssl-engine.require-mutual-authentication"))
        .isTrue();
    assertThat(c.getString("pekko.remote.artery.ssl.config-ssl-engine.key-store"))
        .endsWith(ClusterKeys.KEY_STORE);
    assertThat(c.getString("pekko.remote.artery.canonical.hostname")).isEqualTo("127.0.0.1");
    assertThat(c.getString("pekko.management.http.hostname")).isEqualTo("127.0.0.1");
    assertThat(c.getString("pekko.cluster.downing-provider-class"))
        .isEqualTo("org.apache.pekko.cluster.sbr.SplitBrainResolverProvider");
    assertThat(c.getBoolean("pekko.coordinated-shutdown.run-by-jvm-shutdown-hook")).isTrue();
    assertThat(c.getBoolean("pekko.coordinated-shutdown.exit-jvm")).isTrue();
    assertThat(c.getString("pekko.management.http.routes.mqroute-status"))
        .isEqualTo("io.mqroute.cluster.mgmt.StatusRoutes");
    assertThat(c.getString("pekko.management.http.routes.cluster-management"))
        .contains("ClusterHttpManagement");
  }

  @Test
  void theRoleComesFromTheFileWhenNoFlagGivesItAndMustAgreeWithIt(@TempDir Path dir)
      throws IOException {
    Path device = Files.writeString(dir.resolve("device.conf"), "pekko.cluster.roles = [device]\n");
    Path none =
        Files.writeString(dir.resolve("none.conf"), "mqroute.cluster.host.selector = p2c\n");
    assertThat(NodeSettings.roleOf(device)).isEqualTo(NodeSettings.Role.DEVICE);
    assertThatThrownBy(() -> NodeSettings.roleOf(none))
        .isInstanceOf(NodeConfigException.class)
        .hasMessageContaining("give --role");
    assertThatThrownBy(() -> NodeSettings.roleOf(null)).hasMessageStartingWith("missing --role");
    // --role host with a device file: the file's role was silently replaced before
    assertThatThrownBy(() -> host(0, "", device).toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessageContaining("--role host but --config")
        .hasMessageContaining("[device]");
  }

  @Test
  void hostAndDeviceInOneNodeHasBothRolesAndTakesData(@TempDir Path dir) throws IOException {
    assertThat(NodeSettings.Role.ofNode("host+device")).isEqualTo(NodeSettings.Role.HOST_DEVICE);
    assertThat(NodeSettings.Role.ofNode("device,host")).isEqualTo(NodeSettings.Role.HOST_DEVICE);
    Path both =
        Files.writeString(dir.resolve("both.conf"), "pekko.cluster.roles = [device, host]\n");
    assertThat(NodeSettings.roleOf(both)).isEqualTo(NodeSettings.Role.HOST_DEVICE);
    Config c =
        new NodeSettings(
                NodeSettings.Role.HOST_DEVICE,
                0,
                List.of(),
                both,
                dir.resolve("data"),
                -1,
                -1,
                null,
                true)
            .toConfig();
    assertThat(c.getStringList("pekko.cluster.roles")).containsExactly("host", "device");
    assertThat(c.getString("mqroute.cluster.device.backend")).isEqualTo("file");
    // a host-only file does not make a host+device node
    Path host = Files.writeString(dir.resolve("host.conf"), "pekko.cluster.roles = [host]\n");
    assertThatThrownBy(
            () ->
                new NodeSettings(
                        NodeSettings.Role.HOST_DEVICE, 0, List.of(), host, null, -1, -1, null, true)
                    .toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessageContaining("--role host+device but --config");
  }

  @Test
  void aSubstitutionChainTooDeepToResolveIsOneLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("chain.conf");
    StringBuilder chain = new StringBuilder();
    for (int i = 0; i < 5_000; i++) {
      chain.append("k").append(i).append(" = ${k").append(i + 1).append("}\n");
    }
    Files.writeString(f, chain.append("k5000 = 1\n"));
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessageStartingWith("--config " + f)
        .hasMessageContaining("too deeply to resolve");
  }

  @Test
  void theConfigFileIsUnderTheFlagsAndOverTheDefaults(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("node.conf");
    Files.writeString(
        f,
        """
        pekko.remote.artery.canonical.port = 25599
        pekko.management.http.port = 19999
        mqroute.cluster.host.selector = p2c
        """);
    Config fromFile = host(0, "", f).toConfig();
    assertThat(fromFile.getInt("pekko.remote.artery.canonical.port")).isEqualTo(25599);
    assertThat(fromFile.getInt("pekko.management.http.port")).isEqualTo(19999);
    assertThat(fromFile.getString("mqroute.cluster.host.selector")).isEqualTo("p2c");
    assertThat(host(25600, "", f).toConfig().getInt("pekko.remote.artery.canonical.port"))
        .isEqualTo(25600);
  }

  @Test
  void theShippedNodeFilesWork() {
    Path deviceB = Path.of("../cluster-config/device-b.conf");
    Config c =
        new NodeSettings(NodeSettings.Role.DEVICE, 0, List.of(), deviceB, null, -1, -1, null, true)
            .toConfig();
    assertThat(c.getInt("pekko.remote.artery.canonical.port")).isEqualTo(25522);
    assertThat(c.getInt("pekko.management.http.port")).isEqualTo(26522);
    assertThat(c.getInt("mqroute.cluster.device.first-queue")).isEqualTo(16);
    assertThat(c.getStringList("pekko.cluster.roles")).containsExactly("device");
    assertThat(NodeSettings.roleOf(Path.of("../cluster-config/host.conf")))
        .isEqualTo(NodeSettings.Role.HOST);
  }

  @Test
  void dataMakesADeviceServeFilesUnderIt(@TempDir Path dir) {
    Path data = dir.resolve("data");
    Config c =
        new NodeSettings(NodeSettings.Role.DEVICE, 0, List.of(), null, data, -1, 3, null, true)
            .toConfig();
    assertThat(c.getString("mqroute.cluster.device.backend")).isEqualTo("file");
    assertThat(Path.of(c.getString("mqroute.cluster.device.file-root")))
        .isEqualTo(data.toAbsolutePath());
    assertThat(Files.isDirectory(data)).isTrue();
    assertThat(c.getInt("mqroute.cluster.device.first-queue")).isEqualTo(3);
  }

  @Test
  void aClientNeverExitsTheJvm() {
    Config c =
        new NodeSettings(
                NodeSettings.Role.CLIENT, 0, List.of("127.0.0.1:1"), null, null, -1, -1, null, true)
            .toConfig();
    assertThat(c.getBoolean("pekko.coordinated-shutdown.exit-jvm")).isFalse();
    // a lost host never lets its leave converge: the process ends about a second after its run,
    // not 10 s, and Artery does not wait its default second to flush to the dead host
    assertThat(c.getDuration("pekko.coordinated-shutdown.phases.cluster-exiting.timeout"))
        .isEqualTo(Duration.ofMillis(500));
    assertThat(c.getDuration("pekko.coordinated-shutdown.phases.cluster-leave.timeout"))
        .isEqualTo(Duration.ofMillis(500));
    assertThat(c.getDuration("pekko.remote.artery.advanced.shutdown-flush-timeout"))
        .isEqualTo(Duration.ofMillis(300));
  }

  @Test
  void badSeedsAndPortsAreOneLineErrors() {
    assertThatThrownBy(() -> NodeSettings.parseSeeds("127.0.0.1:99999"))
        .isInstanceOf(NodeConfigException.class)
        .hasMessage("--seeds: '127.0.0.1:99999' is not host:port (e.g. 127.0.0.1:25520)");
    assertThatThrownBy(() -> host(-1, "", null)).hasMessage("--port must be in 0..65535, was -1");
    assertThatThrownBy(() -> NodeSettings.Role.ofNode("client"))
        .hasMessageContaining("host, device, host+device or worker");
  }

  @Test
  void aLoopbackNodeRefusesSeedsItCouldNeverReach() {
    assertThatThrownBy(() -> host(25520, "10.0.0.7:25520", null).toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessage(
            "--seeds: 10.0.0.7:25520 is not a loopback address, but this node listens on 127.0.0.1 only "
                + "(pekko.remote.artery.canonical.hostname) and could never join it");
    assertThatThrownBy(() -> host(25520, "127.0.0.1:25521,db.example.com:25520", null).toConfig())
        .hasMessageContaining("db.example.com:25520 is not a loopback address");
    assertThat(
            host(25520, "127.0.0.2:25521,localhost:25522", null)
                .toConfig()
                .getStringList("pekko.cluster.seed-nodes"))
        .hasSize(2);
    assertThat(NodeSettings.isLoopback("[::1]")).isTrue();
    assertThat(NodeSettings.isLoopback("127.0.0.1.evil.com")).isFalse();
  }

  @Test
  void theDeviceQueueRulesAreCheckedWithTheExperimentFormatsParsers(@TempDir Path dir)
      throws IOException {
    Path f = dir.resolve("device.conf");
    Files.writeString(f, "mqroute.cluster.device.full-ring = \"refill-on-complete\"\n");
    NodeSettings device =
        new NodeSettings(NodeSettings.Role.DEVICE, 0, List.of(), f, null, -1, -1, null, true);
    assertThatThrownBy(device::toConfig)
        .isInstanceOf(NodeConfigException.class)
        .hasMessage(
            "mqroute.cluster.device.full-ring: unknown full-ring strategy \"refill-on-complete\"; did you "
                + "mean \"refill-on-completion\"? (valid: delayed-retry, refill-on-completion)");
    Files.writeString(f, "mqroute.cluster.device.full-ring = \"delayed-retry(2ms)\"\n");
    Config c = device.toConfig();
    assertThat(
            DeviceRules.fromConfig(c.getConfig("mqroute.cluster.device"))
                .fullRing()
                .retryDelayNanos())
        .isEqualTo(2_000_000L);
    Files.writeString(f, "mqroute.cluster.device.full-ring = \"delayed-retry(-1ms)\"\n");
    assertThatThrownBy(device::toConfig)
        .hasMessageStartingWith("mqroute.cluster.device.full-ring: ")
        .hasMessageNotContaining("\n");
  }

  @Test
  void theHostAdmissionKeysAreTheExperimentFormats(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("host.conf");
    Files.writeString(f, "mqroute.cluster.host.admission = per-queu\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessage(
            "mqroute.cluster.host.admission: unknown admission \"per-queu\"; did you mean \"per-queue\"? "
                + "(valid: global, per-queue)");
    Files.writeString(f, "mqroute.cluster.host.max-background = 0\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .hasMessage(
            "mqroute.cluster.host.max-background: max-background must be in [1, 65535], got 0");
    Files.writeString(f, "mqroute.cluster.host { admission = global, max-background = 12 }\n");
    HostRouterSettings s =
        HostRouterSettings.fromConfig(host(0, "", f).toConfig().getConfig("mqroute.cluster.host"));
    assertThat(s.admission()).isEqualTo(BackgroundAdmission.Mode.GLOBAL);
    assertThat(s.maxBackground()).isEqualTo(12);
    assertThat(s.congestionThreshold())
        .as("3/4 of max-background, as in an experiment")
        .isEqualTo(9);
    assertThat(s.suspectAfter())
        .as("reference.conf's default is the code's")
        .isEqualTo(HostRouterSettings.DEFAULT_SUSPECT_AFTER);
    Files.writeString(f, "mqroute.cluster.host.suspect-after = off\n");
    assertThat(
            HostRouterSettings.fromConfig(
                    host(0, "", f).toConfig().getConfig("mqroute.cluster.host"))
                .suspectAfter())
        .isNull();
  }

  @Test
  void aNodeThatCannotJoinGivesUp() {
    assertThat(
            host(0, "", null)
                .toConfig()
                .getDuration("pekko.cluster.shutdown-after-unsuccessful-join-seed-nodes"))
        .isEqualTo(Duration.ofSeconds(60));
  }

  @Test
  void theFileCountIsRangeChecked(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("device.conf");
    NodeSettings device =
        new NodeSettings(NodeSettings.Role.DEVICE, 0, List.of(), f, null, -1, -1, null, true);
    Files.writeString(f, "mqroute.cluster.device.file-count = 0\n");
    assertThatThrownBy(device::toConfig)
        .isInstanceOf(NodeConfigException.class)
        .hasMessage("mqroute.cluster.device.file-count must be in 1..1048576, was 0");
    Files.writeString(f, "mqroute.cluster.device.file-count = 2000000\n");
    assertThatThrownBy(device::toConfig)
        .hasMessageStartingWith("mqroute.cluster.device.file-count must be");
    Files.writeString(f, "");
    assertThat(device.toConfig().getInt("mqroute.cluster.device.file-count")).isEqualTo(64);
  }

  @Test
  void numbersAndSizesAreRangeCheckedWithOneLineErrors(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("node.conf");
    NodeSettings device =
        new NodeSettings(NodeSettings.Role.DEVICE, 0, List.of(), f, null, -1, -1, null, true);
    String[][] cases = {
      {
        "mqroute.cluster.device.file-max-bytes = 0",
        "mqroute.cluster.device.file-max-bytes must be in 1..1TiB, was 0"
      },
      {
        "mqroute.cluster.device.file-max-bytes = 2TiB",
        "mqroute.cluster.device.file-max-bytes must be in 1..1TiB, was 2TiB"
      },
      {
        "mqroute.cluster.device.service-delay = -1ms",
        "mqroute.cluster.device.service-delay must be in 0s..24h, was -1ms"
      },
      {
        "mqroute.cluster.link.tls-provider = gnutls",
        "mqroute.cluster.link.tls-provider must be openssl or jdk, was 'gnutls'"
      },
      {
        "mqroute.cluster.device.file-io = async",
        "mqroute.cluster.device.file-io must be pool, inline or auto, was 'async'"
      },
      {
        "mqroute.cluster.device.queues = 0",
        "mqroute.cluster.device.queues must be in 1..1024, was 0"
      },
      {
        "mqroute.cluster.device.ring-size = 100000",
        "mqroute.cluster.device.ring-size must be in 1..65536, was 100000"
      },
      {
        "mqroute.cluster.device.first-queue = -1",
        "mqroute.cluster.device.first-queue must be in 0..2147483645, was -1"
      },
      {
        "mqroute.cluster.host.max-queues = 0",
        "mqroute.cluster.host.max-queues must be in 1..1024, was 0"
      },
      {
        "mqroute.cluster.host.queue-window = 0",
        "mqroute.cluster.host.queue-window must be in 1..65536, was 0"
      },
      {
        "mqroute.cluster.host.queue-window = lots",
        "mqroute.cluster.host.queue-window must be a number, was \"lots\""
      },
      {
        "mqroute.cluster.host.suspect-after = 0ms",
        "mqroute.cluster.host.suspect-after: 1ms..60s or off, was 0ms"
      },
      {
        "mqroute.cluster.host.suspect-after = 2m",
        "mqroute.cluster.host.suspect-after: 1ms..60s or off, was 120000ms"
      },
      {
        "mqroute.cluster.host.suspect-after = soon",
        "mqroute.cluster.host.suspect-after: a duration (e.g. 250ms) or off, was \"soon\""
      },
      {
        "mqroute.cluster.inbound.max-connections = 0",
        "mqroute.cluster.inbound.max-connections must be in 1..65536, was 0"
      },
      {
        "mqroute.cluster.inbound.max-pending = 300",
        "mqroute.cluster.inbound.max-pending must be in 1..256, was 300"
      },
      {
        "mqroute.cluster.inbound.handshake-timeout = 0s",
        "mqroute.cluster.inbound.handshake-timeout must be in 1ms..1h, was 0s"
      },
    };
    for (String[] c : cases) {
      Files.writeString(f, c[0] + "\n");
      assertThatThrownBy(device::toConfig)
          .as(c[0])
          .isInstanceOf(NodeConfigException.class)
          .hasMessage(c[1]);
    }
  }

  @Test
  void theNodeFileIsBoundedAndIncludesNoUrl(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("node.conf");
    Files.writeString(f, "include url(\"http://127.0.0.1:9/node.conf\")\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessageContaining("include url(http://127.0.0.1:9/node.conf) is not allowed")
        .hasMessageStartingWith("--config ");
    Path big = dir.resolve("big.conf");
    Files.writeString(big, "x = \"" + "a".repeat(1 << 20) + "\"\n");
    Files.writeString(f, "include file(\"" + big + "\")\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .hasMessage("--config " + big + ": larger than 1 MiB");
    assertThatThrownBy(() -> host(0, "", big).toConfig())
        .hasMessage("--config " + big + ": larger than 1 MiB");
    Files.writeString(f, "include \"small.conf\"\n");
    Files.writeString(dir.resolve("small.conf"), "mqroute.cluster.host.queue-window = 7\n");
    assertThat(host(0, "", f).toConfig().getInt("mqroute.cluster.host.queue-window")).isEqualTo(7);
  }

  @Test
  void aNodeFileCannotQuietlyTurnTheProtectionsOff(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("node.conf");
    Files.writeString(f, "pekko.actor.allow-java-serialization = on\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .isInstanceOf(NodeConfigException.class)
        .hasMessageStartingWith("pekko.actor.allow-java-serialization = on is refused");
    Files.writeString(f, "pekko.actor.serialization-bindings { \"java.lang.Object\" = java }\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .hasMessage(
            "pekko.actor.serialization-bindings: \"java.lang.Object\" is bound to Java serialization, "
                + "which mqroute nodes refuse");
    Files.writeString(
        f,
        "pekko.actor.serializers.j2 = \"org.apache.pekko.serialization.JavaSerializer\"\n"
            + "pekko.actor.serialization-bindings { \"java.util.List\" = j2 }\n");
    assertThatThrownBy(() -> host(0, "", f).toConfig())
        .hasMessageContaining("bound to Java serialization");
    for (String key :
        List.of(
            "pekko.remote.artery.canonical.hostname",
            "pekko.management.http.hostname",
            "pekko.remote.artery.bind.hostname")) {
      Files.writeString(f, key + " = \"0.0.0.0\"\n");
      assertThatThrownBy(() -> host(0, "", f).toConfig())
          .as(key)
          .hasMessageStartingWith(key + " = 0.0.0.0 is not a loopback address")
          .hasMessageContaining("mqroute.cluster.allow-non-loopback = on");
    }
    Files.writeString(
        f,
        "pekko.management.http.hostname = \"0.0.0.0\"\nmqroute.cluster.allow-non-loopback = on\n");
    NodeSettings withKeys =
        new NodeSettings(
            NodeSettings.Role.HOST, 0, List.of(), f, null, -1, -1, TestKeys.dir(), false);
    assertThat(withKeys.toConfig().getString("pekko.management.http.hostname"))
        .isEqualTo("0.0.0.0");
  }

  @Test
  void aFileRootOwnedBySomeoneElseIsAOneLineError(@TempDir Path dir) throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    try {
      Files.setOwner(
          data,
          data.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
    } catch (IOException | UnsupportedOperationException e) {
      Assumptions.assumeTrue(false, "cannot chown here: " + e);
    }
    NodeSettings device =
        new NodeSettings(NodeSettings.Role.DEVICE, 0, List.of(), null, data, -1, -1, null, true);
    assertThatThrownBy(device::toConfig)
        .isInstanceOf(NodeConfigException.class)
        .hasMessageStartingWith("mqroute.cluster.device.file-root: file backend root ")
        .hasMessageContaining("is owned by nobody")
        .hasMessageNotContaining("\n");
  }

  @Test
  void withoutKeysOrPlainTcpANodeIsRefusedInOneLine() {
    NodeSettings none =
        new NodeSettings(NodeSettings.Role.HOST, 0, List.of(), null, null, -1, -1, null, false);
    assertThatThrownBy(none::toConfig)
        .isInstanceOf(NodeConfigException.class)
        .hasMessageStartingWith("Artery runs over mutual TLS: give --keys DIR")
        .hasMessageContaining("mqroute keys DIR");
  }

  @Test
  void plainTcpIsForLoopbackOnlyAndExcludesKeys(@TempDir Path dir) throws IOException {
    Path f =
        Files.writeString(dir.resolve("open.conf"), "mqroute.cluster.allow-non-loopback = on\n");
    assertThatThrownBy(
            () ->
                new NodeSettings(NodeSettings.Role.HOST, 0, List.of(), f, null, -1, -1, null, true)
                    .toConfig())
        .hasMessageContaining("needs Artery over mutual TLS");
    assertThatThrownBy(
            () ->
                new NodeSettings(
                    NodeSettings.Role.HOST, 0, List.of(), null, null, -1, -1, TestKeys.dir(), true))
        .hasMessage("--keys and --plain-tcp exclude each other");
    // off loopback with TLS is allowed
    Config c =
        new NodeSettings(
                NodeSettings.Role.HOST, 0, List.of(), f, null, -1, -1, TestKeys.dir(), false)
            .toConfig();
    assertThat(c.getString("pekko.remote.artery.transport")).isEqualTo("tls-tcp");
  }

  @Test
  void aDirectoryWithoutKeysIsNamed(@TempDir Path dir) {
    assertThatThrownBy(
            () ->
                new NodeSettings(
                        NodeSettings.Role.HOST, 0, List.of(), null, null, -1, -1, dir, false)
                    .toConfig())
        .hasMessage(
            "--keys "
                + dir
                + ": no keystore.p12 (create the cluster's keys with: mqroute keys "
                + dir
                + ")");
  }

  @Test
  void keysAreNotOverwritten() {
    assertThatThrownBy(() -> ClusterKeys.create(TestKeys.dir()))
        .hasMessageContaining("already holds a cluster's keys");
  }
}
