package io.mqroute.cluster;

import com.typesafe.config.Config;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One cluster's keys per test JVM ({@code keytool} takes about a second), for mutual-TLS nodes. */
final class TestKeys {
  private static Path dir;

  private TestKeys() {}

  static synchronized Path dir() {
    if (dir == null) {
      try {
        Path d = Files.createTempDirectory("mqroute-keys").resolve("keys");
        ClusterKeys.create(d);
        dir = d;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return dir;
  }

  /** The Artery settings of a member: tls-tcp with the test cluster's keys. */
  static Config artery() {
    return ClusterKeys.artery(dir());
  }

  /** {@link #artery()} as HOCON lines ({@code path = value}), to prepend to a node's settings. */
  static String arteryLines() {
    StringBuilder sb = new StringBuilder();
    artery()
        .entrySet()
        .forEach(
            e -> sb.append(e.getKey()).append(" = ").append(e.getValue().render()).append('\n'));
    return sb.toString();
  }
}
