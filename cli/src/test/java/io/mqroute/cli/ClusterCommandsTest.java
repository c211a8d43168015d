package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** node, load and cluster-demo refuse bad flags, files and config with one line and exit code 2. */
class ClusterCommandsTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return Main.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private void assertOneLineError(int exit, String contains) {
    assertThat(exit).as(err.toString()).isEqualTo(Main.BAD_INPUT);
    String e = err.toString();
    assertThat(e.lines().findFirst().orElseThrow()).startsWith("mqroute: ").contains(contains);
    assertThat(e).doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void anUnknownRoleIsOneLine() {
    assertOneLineError(
        run("node", "--role", "router", "--port", "25520"),
        "--role must be host, device, host+device or worker");
  }

  /** run --cluster: its flags are checked before any node starts or any run is made. */
  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      value = {
        "--cluster|127.0.0.1:x|--cluster: '127.0.0.1:x' is not host:port",
        "--cluster|,|--cluster: give at least one host:port",
        "--wait|0|--wait: give 1..86400 seconds, was 0",
        "--keys|keys|--keys, --plain-tcp and --management-port are for --cluster",
        "--management-port|0|--keys, --plain-tcp and --management-port are for --cluster"
      })
  void runClusterFlagsAreOneLine(String flag, String value, String message, @TempDir Path dir)
      throws IOException {
    Path conf =
        Files.writeString(
            dir.resolve("t.conf"), "name = t\nworkload = \"[j]\\nrw=read\\nsize=64k\\n\"\n");
    assertOneLineError(run("run", conf.toString(), flag, value), message);
  }

  @Test
  void aWorkerWithTooManySlotsIsOneLine(@TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("w.conf"), "mqroute.cluster.worker.slots = 5000\n");
    assertOneLineError(
        run("node", "--role", "worker", "--config", f.toString()),
        "mqroute.cluster.worker.slots must be in 0..4096, was 5000");
  }

  @Test
  void aPortOutOfRangeIsOneLine() {
    assertOneLineError(
        run("node", "--role", "host", "--port", "70000"), "--port must be in 0..65535");
  }

  @Test
  void aSeedThatIsNotHostPortIsOneLine() {
    assertOneLineError(
        run("node", "--role", "device", "--seeds", "127.0.0.1:25520,localhost:x"),
        "'localhost:x' is not host:port");
  }

  @Test
  void aSeedOffLoopbackIsOneLine() {
    assertOneLineError(
        run("node", "--role", "device", "--seeds", "127.0.0.1:25520,10.0.0.7:25520"),
        "10.0.0.7:25520 is not a loopback address");
  }

  @Test
  void clusterDemoNamesABusyPortBeforeStartingAnything() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      // the port is taken as device A's management port: base + 1001
      int base = taken.getLocalPort() - 1001;
      Assumptions.assumeTrue(base >= 1 && base + 1002 <= 65535);
      assertOneLineError(
          run("cluster-demo", "--base-port", Integer.toString(base)),
          "is busy"); // normally device A's management port; another of the six may happen to be
      // busy too
    }
  }

  @Test
  void nbdBoundsOutOfRangeAreOneLine(@TempDir Path dir) throws IOException {
    Path f = dir.resolve("host.conf");
    int port;
    try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      port = free.getLocalPort();
    }
    String[][] cases = {
      {"mqroute.nbd.max-connections = 0", "mqroute.nbd.max-connections must be in 1..4096, was 0"},
      {"mqroute.nbd.max-in-flight = 100000", "mqroute.nbd.max-in-flight must be in 1..65536"},
      {"mqroute.nbd.handshake-timeout = 0s", "mqroute.nbd.handshake-timeout must be in 1ms..1h"},
      {"mqroute.nbd.handshake-timeout = soon", "mqroute.nbd.handshake-timeout"},
    };
    for (String[] c : cases) {
      Files.writeString(f, c[0] + "\n");
      err.getBuffer().setLength(0);
      assertOneLineError(
          run(
              "node",
              "--role",
              "host",
              "--plain-tcp",
              "--config",
              f.toString(),
              "--nbd",
              Integer.toString(port),
              "--export-size",
              "1m"),
          c[1]);
    }
  }

  @Test
  void clusterBenchRefusesMoreQueuesThanTheRouterHasSlots() {
    assertOneLineError(run("cluster-bench", "--queues", "65"), "--queues must be at most 64");
  }

  @Test
  void aMissingConfigFileIsOneLine(@TempDir Path dir) {
    assertOneLineError(
        run("node", "--role", "host", "--config", dir.resolve("nope.conf").toString()),
        "nope.conf: no such file");
  }

  @Test
  void aConfigFileThatDoesNotParseIsOneLineNamingIt(@TempDir Path dir) throws IOException {
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "pekko.cluster {\n  roles = [host\n");
    assertOneLineError(run("node", "--role", "host", "--config", bad.toString()), "bad.conf");
  }

  @Test
  void aBadValueInTheConfigIsOneLine(@TempDir Path dir) throws IOException {
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "mqroute.cluster.device.backend = tape\n");
    assertOneLineError(
        run("node", "--role", "device", "--config", bad.toString()),
        "mqroute.cluster.device.backend must be null or file");
    err.getBuffer().setLength(0);
    Files.writeString(bad, "mqroute.cluster.host.selector = sideways\n");
    assertOneLineError(run("node", "--role", "host", "--config", bad.toString()), "sideways");
  }

  @Test
  void aPortInUseIsOneLineBeforeAnythingStarts() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      assertOneLineError(
          run(
              "node",
              "--role",
              "host",
              "--plain-tcp",
              "--port",
              Integer.toString(taken.getLocalPort())),
          "Artery port 127.0.0.1:" + taken.getLocalPort() + " is not free");
    }
  }

  @Test
  void dataIsForDevicesOnly(@TempDir Path dir) {
    assertOneLineError(
        run("node", "--role", "host", "--data", dir.toString()), "--data is for --role device");
  }

  @Test
  void loadWithAMissingOrBadJobFileIsOneLine(@TempDir Path dir) throws IOException {
    assertOneLineError(
        run("load", "--seeds", "127.0.0.1:25520", dir.resolve("none.fio").toString()), "none.fio");
    err.getBuffer().setLength(0);
    Path job = dir.resolve("bad.fio");
    Files.writeString(job, "[j]\nrw=sideways\n");
    assertOneLineError(run("load", "--seeds", "127.0.0.1:25520", job.toString()), "bad.fio");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      fsync=4 | fsync
      nrfiles=2 | nrfiles > 1
      cpus_allowed=0-1 | cpus_allowed / numa_cpu_nodes (the load client does not pin its threads)
      exitall | exitall
      flow=2 | flow
      ioengine=falloc | ioengine=falloc (it sends FUSE FALLOCATE, GETXATTR requests; a device node's file backend keeps files by number, with no names, and serves READ, WRITE, FSYNC and FLUSH only)
      ioengine=filestat | ioengine=filestat (it sends FUSE GETATTR, LOOKUP requests; a device node's file backend keeps files by number, with no names, and serves READ, WRITE, FSYNC and FLUSH only)
      """)
  void loadRefusesOptionsItDoesNotDo(String option, String named, @TempDir Path dir)
      throws IOException {
    Path job = dir.resolve("refused.fio");
    Files.writeString(job, "[j]\nrw=randread\nsize=1m\n" + option + "\n");
    assertOneLineError(
        run("load", "--seeds", "127.0.0.1:25520", job.toString()),
        "job j: " + named + " is not supported by mqroute load");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
      rw=randread;size=1m;verify=md5           | verify=md5 with rw=randread (mqroute load checks what the same job wrote
      rw=write;size=1m;bs=64k;verify=crc32c    | verify=crc32c with bs=65536 (verified blocks are 52 to 32768 bytes
      rw=write;size=1m;bs=64;verify=sha512     | verify=sha512 with bs=64 (verified blocks are 112 to 32768 bytes
      rw=rw;size=1m;bs=4k,8k;verify=md5        | verify=md5 with several block sizes (one bs= for reads and writes
      rw=write;size=1m;bssplit=4k/50:8k/50;verify=md5 | verify=md5 with several block sizes
      rw=write;size=32g;verify=md5             | verify=md5 over 8388608 blocks (a verifying clone tracks at most 4194304
      """)
  void loadRefusesAVerifyItCannotCheck(String options, String named, @TempDir Path dir)
      throws IOException {
    Path job = dir.resolve("verify.fio");
    Files.writeString(job, "[j]\n" + options.replace(";", "\n") + "\n");
    assertOneLineError(run("load", "--seeds", "127.0.0.1:25520", job.toString()), named);
  }

  @Test
  void aVerifyMethodTheLoadDoesNotComputeIsRefused(@TempDir Path dir) throws IOException {
    Path job = dir.resolve("verify.fio");
    Files.writeString(job, "[j]\nrw=write\nsize=1m\nverify=crc7\n");
    assertOneLineError(
        run("load", "--seeds", "127.0.0.1:25520", job.toString()),
        "verify.fio:1: job j: verify=crc7 (the load client checks 0, null, md5");
  }

  @Test
  void aTimeBasedJobWithoutRuntimeIsRefused(@TempDir Path dir) throws IOException {
    Path job = dir.resolve("forever.fio");
    Files.writeString(job, "[forever]\nrw=randread\nsize=1m\ntime_based\n");
    assertOneLineError(
        run("load", "--seeds", "127.0.0.1:25520", job.toString()), "time_based needs runtime");
  }

  @Test
  void loadNeedsSeeds(@TempDir Path dir) throws IOException {
    Path job = dir.resolve("ok.fio");
    Files.writeString(job, "[j]\nrw=randread\nsize=1m\n");
    assertOneLineError(run("load", "--seeds", " ", job.toString()), "--seeds");
  }

  @Test
  void clusterDemoRefusesABasePortWithoutRoom() {
    assertOneLineError(
        run("cluster-demo", "--base-port", "65000"), "--base-port must be in 1..64533");
  }

  @Test
  void helpListsTheClusterCommands() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString()).contains("node", "load", "cluster-demo");
  }

  @Test
  @org.junit.jupiter.api.Timeout(20)
  void aLoadJobFileMustBeARegularFileWithinTheLimit(@org.junit.jupiter.api.io.TempDir Path dir)
      throws IOException {
    Assumptions.assumeTrue(Files.exists(Path.of("/dev/zero")));
    assertOneLineError(
        run("load", "/dev/zero", "--seeds", "127.0.0.1:25520"),
        "/dev/zero: cannot read (not a regular file)");
    err.getBuffer().setLength(0);
    Path big = dir.resolve("big.fio");
    Files.write(big, new byte[(1 << 20) + 1]);
    assertOneLineError(
        run("load", big.toString(), "--seeds", "127.0.0.1:25520"), "larger than 1 MiB");
  }

  @Test
  void keysAreMadeOnceAndANodeWithoutThemIsOneLine(@TempDir Path tmp) {
    Path keys = tmp.resolve("keys");
    assertThat(run("keys", keys.toString())).as(err.toString()).isZero();
    assertThat(out.toString()).contains("start nodes with --keys " + keys);
    assertThat(keys.resolve("keystore.p12")).isRegularFile();
    assertThat(keys.resolve("truststore.p12")).isRegularFile();
    assertThat(keys.resolve("keys.conf")).isRegularFile();
    assertOneLineError(run("keys", keys.toString()), "already holds a cluster's keys");
    err.getBuffer().setLength(0);
    assertOneLineError(
        run("node", "--role", "host"), "Artery runs over mutual TLS: give --keys DIR");
    err.getBuffer().setLength(0);
    assertOneLineError(
        run("node", "--role", "host", "--keys", tmp.resolve("none").toString()), "no keystore.p12");
    err.getBuffer().setLength(0);
    assertOneLineError(
        run("node", "--role", "host", "--keys", keys.toString(), "--plain-tcp"),
        "--keys and --plain-tcp exclude each other");
  }

  @Test
  void clusterBenchRefusesAHugeWindowAndAFileAsDirectory() {
    assertOneLineError(
        run("cluster-bench", "--in-flight", "100000000"), "--in-flight must be at most");
    err.getBuffer().setLength(0);
    assertOneLineError(
        run("cluster-bench", "--backend", "file", "--dir", "/dev/null"),
        "--dir /dev/null is not a directory");
    err.getBuffer().setLength(0);
    assertOneLineError(
        run("cluster-bench", "--transport", "udp"), "--transport must be tls or tcp");
    err.getBuffer().setLength(0);
    assertOneLineError(run("cluster-bench", "--warmup", "0"), "--warmup must be >= 1, was 0");
  }
}
