package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.mqroute.config.BoundedFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster's keys for Artery over mutual TLS: one EC P-256 key and its self-signed certificate,
 * shared by every node, in {@code keystore.p12}; the certificate alone in {@code truststore.p12};
 * their passwords in {@code keys.conf}. A node proves membership by holding the key; a peer whose
 * certificate is not the cluster's fails the TLS handshake before Artery reads a byte of it. Copy
 * the directory to every node over a channel you trust; it is created readable by its owner only.
 *
 * <p>Made with the JDK's own {@code keytool} (no certificate library needed).
 */
public final class ClusterKeys {
  public static final String KEY_STORE = "keystore.p12";
  public static final String TRUST_STORE = "truststore.p12";
  public static final String PASSWORDS = "keys.conf";
  private static final String ALIAS = "mqroute-cluster";
  private static final long MAX_FILE_BYTES = 64 * 1024;

  private ClusterKeys() {}

  /**
   * Creates the keys in {@code dir} (created if missing; refused if it already holds keys).
   *
   * @throws NodeConfigException with a one-line reason
   */
  public static void create(Path dir) {
    try {
      if (Files.exists(dir.resolve(KEY_STORE)) || Files.exists(dir.resolve(PASSWORDS))) {
        throw new NodeConfigException(
            dir + " already holds a cluster's keys; remove it or choose another directory");
      }
      Files.createDirectories(dir);
      restrict(dir, "rwx------");
      String password = password();
      Path cert = dir.resolve("cluster.crt");
      keytool(
          "-genkeypair",
          "-alias",
          ALIAS,
          "-keyalg",
          "EC",
          "-groupname",
          "secp256r1",
          "-sigalg",
          "SHA256withECDSA",
          "-dname",
          "CN=" + ALIAS,
          "-validity",
          "3650",
          "-storetype",
          "PKCS12",
          "-keystore",
          dir.resolve(KEY_STORE).toString(),
          "-storepass",
          password,
          "-keypass",
          password);
      keytool(
          "-exportcert",
          "-alias",
          ALIAS,
          "-rfc",
          "-keystore",
          dir.resolve(KEY_STORE).toString(),
          "-storepass",
          password,
          "-file",
          cert.toString());
      keytool(
          "-importcert",
          "-noprompt",
          "-alias",
          ALIAS,
          "-storetype",
          "PKCS12",
          "-keystore",
          dir.resolve(TRUST_STORE).toString(),
          "-storepass",
          password,
          "-file",
          cert.toString());
      Files.delete(cert);
      Path passwords = dir.resolve(PASSWORDS);
      Files.writeString(
          passwords,
          "# the passwords of keystore.p12 and truststore.p12 (mqroute keys); keep this file private\n"
              + "key-store-password = \""
              + password
              + "\"\ntrust-store-password = \""
              + password
              + "\"\n",
          StandardCharsets.UTF_8);
      for (String f : List.of(KEY_STORE, TRUST_STORE, PASSWORDS)) {
        restrict(dir.resolve(f), "rw-------");
      }
    } catch (FileAlreadyExistsException e) {
      throw new NodeConfigException(dir + ": " + e.getFile() + " already exists");
    } catch (IOException e) {
      throw new NodeConfigException("cannot create keys in " + dir + ": " + e.getMessage());
    }
  }

  /**
   * The Artery settings that make a node use the keys in {@code dir}: transport {@code tls-tcp},
   * the key and trust stores and their passwords.
   *
   * @throws NodeConfigException if the directory does not hold a cluster's keys
   */
  public static Config artery(Path dir) {
    Path passwords = dir.resolve(PASSWORDS);
    for (String f : List.of(KEY_STORE, TRUST_STORE, PASSWORDS)) {
      if (!Files.isRegularFile(dir.resolve(f), LinkOption.NOFOLLOW_LINKS)) {
        throw new NodeConfigException(
            "--keys "
                + dir
                + ": no "
                + f
                + " (create the cluster's keys with: mqroute keys "
                + dir
                + ")");
      }
    }
    Config p;
    try {
      p = ConfigFactory.parseString(BoundedFiles.readString(passwords, MAX_FILE_BYTES));
    } catch (IOException | RuntimeException e) {
      throw new NodeConfigException("--keys " + passwords + ": " + e.getMessage());
    }
    if (!p.hasPath("key-store-password") || !p.hasPath("trust-store-password")) {
      throw new NodeConfigException(
          "--keys " + passwords + ": needs key-store-password and trust-store-password");
    }
    String engine = "pekko.remote.artery.ssl.config-ssl-engine.";
    String key = p.getString("key-store-password");
    return ConfigFactory.empty()
        .withValue("pekko.remote.artery.transport", ConfigValueFactory.fromAnyRef("tls-tcp"))
        .withValue(
            engine + "key-store",
            ConfigValueFactory.fromAnyRef(dir.resolve(KEY_STORE).toAbsolutePath().toString()))
        .withValue(
            engine + "trust-store",
            ConfigValueFactory.fromAnyRef(dir.resolve(TRUST_STORE).toAbsolutePath().toString()))
        .withValue(engine + "key-store-password", ConfigValueFactory.fromAnyRef(key))
        .withValue(engine + "key-password", ConfigValueFactory.fromAnyRef(key))
        .withValue(
            engine + "trust-store-password",
            ConfigValueFactory.fromAnyRef(p.getString("trust-store-password")));
  }

  private static String password() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private static void restrict(Path p, String perms) throws IOException {
    try {
      Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(perms));
    } catch (UnsupportedOperationException notPosix) {
      // a file system without POSIX permissions: the directory's own protection applies
    }
  }

  private static void keytool(String... args) throws IOException {
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    if (!Files.isExecutable(keytool)) {
      throw new NodeConfigException(
          "cannot create keys: " + keytool + " not found (a JDK's keytool is needed)");
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(keytool.toString());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new NodeConfigException("cannot create keys: keytool did not finish in 60 s");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeConfigException("cannot create keys: interrupted");
    }
    if (p.exitValue() != 0) {
      throw new NodeConfigException(
          "cannot create keys: keytool "
              + args[0]
              + " failed: "
              + out.lines().findFirst().orElse(""));
    }
  }
}
