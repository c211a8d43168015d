package io.mqroute.nbd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Real clients (qemu-io, nbdinfo, fio's nbd engine) against the server in front of the in-memory
 * backend. Each tool is skipped with its name when it is not installed ({@code .ci/run} installs
 * them).
 */
@Tag("integration")
class NbdRealClientsTest {
  private static ActorTestKit kit;
  private static NbdServer server;
  private static MemoryBackend backend;
  private static String uri;

  @BeforeAll
  static void start() throws Exception {
    kit = ActorTestKit.create();
    backend = new MemoryBackend(64L << 20);
    server = NbdServer.startAndWait(NbdServerSettings.loopback(0), backend, Duration.ofSeconds(10));
    uri = "nbd://127.0.0.1:" + server.address().getPort();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    kit.shutdownTestKit();
  }

  static void requireTool(String name) {
    assumeTrue(ExternalTool.find(name) != null, name + " is not installed (apt-get install it)");
  }

  @Test
  void qemuIoWritesAPatternAndReadsItBack() throws Exception {
    requireTool("qemu-io");
    ExternalTool.Result r =
        ExternalTool.run(
            60,
            "qemu-io",
            "-f",
            "raw",
            "-c",
            "write -P 0xab 0 64k",
            "-c",
            "read -P 0xab 0 64k",
            "-c",
            "write -P 0x5c 1m 1m",
            "-c",
            "read -P 0x5c 1m 1m",
            "-c",
            "read -P 0 60m 64k",
            "-c",
            "flush",
            uri);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output())
        .doesNotContain("Pattern verification failed")
        .contains("wrote 65536/65536");
    assertThat(r.output()).contains("read 1048576/1048576");
  }

  @Test
  void qemuIoDiscardsWithTrim() throws Exception {
    requireTool("qemu-io");
    ExternalTool.Result r =
        ExternalTool.run(
            60,
            "qemu-io",
            "-f",
            "raw",
            "-c",
            "write -P 0x11 40m 128k",
            "-c",
            "discard 40m 128k",
            "-c",
            "read -P 0 40m 128k",
            uri);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output())
        .doesNotContain("Pattern verification failed")
        .contains("discard 131072/131072");
  }

  @Test
  void nbdinfoReportsTheExport() throws Exception {
    requireTool("nbdinfo");
    ExternalTool.Result r = ExternalTool.run(60, "nbdinfo", uri);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output())
        .contains("export-size: 67108864")
        .contains("block_size_maximum: 32768")
        .contains("can_flush: true")
        .contains("can_trim: true")
        .contains("can_multi_conn: true");
    ExternalTool.Result list = ExternalTool.run(60, "nbdinfo", "--list", uri);
    assertThat(list.exit()).as(list.output()).isZero();
  }

  @Test
  void fioWithTheNbdEngineVerifiesEveryBlock() throws Exception {
    requireTool("fio");
    ExternalTool.Result engines = ExternalTool.run(30, "fio", "--enghelp");
    assumeTrue(engines.output().contains("nbd"), "this fio has no nbd engine");
    ExternalTool.Result r =
        ExternalTool.run(
            120,
            "fio",
            "--name=verify",
            "--ioengine=nbd",
            "--uri=" + uri,
            "--rw=randwrite",
            "--bs=4k",
            "--offset=16m",
            "--size=8m",
            "--iodepth=16",
            "--verify=crc32c",
            "--do_verify=1",
            "--verify_fatal=1",
            "--verify_state_save=0");
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("err= 0");
  }
}
