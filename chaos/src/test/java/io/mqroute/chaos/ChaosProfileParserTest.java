package io.mqroute.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.mqroute.config.ConfigError;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a chaos profile (no runs): the same safe include handling, UTF-8 check and whole-number
 * keys as an experiment, and one-line errors naming file, line and key.
 */
class ChaosProfileParserTest {
  @TempDir Path dir;

  private static final String SMALL =
      """
      machine { numa-nodes = 1, cores-per-node = 2 }
      queues { kind = per-cpu, ring-size = 4 }
      chaos { iterations = 1, hotplug-interval = 0 }
      """;

  private ChaosProfile file(String name, String text) throws IOException {
    Path f = Files.writeString(dir.resolve(name), text);
    return ChaosProfileParser.parse(ChaosProfileParser.load(f.toString()), null, false);
  }

  @Test
  void theBuiltInProfileStillParses() {
    ChaosProfile p = ChaosProfileParser.parse(ChaosProfileParser.load("generic-650"), null, true);
    assertThat(p.name()).isEqualTo("generic-650");
    assertThat(p.iterations()).isEqualTo(10);
  }

  @Test
  void anIncludeUrlIsRefusedWithoutBeingFetched() throws IOException {
    AtomicInteger fetched = new AtomicInteger();
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/",
        ex -> {
          fetched.incrementAndGet();
          byte[] body = "chaos.iterations = 1\n".getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(200, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    server.start();
    try {
      String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/x.conf";
      assertThatThrownBy(() -> file("url.conf", SMALL + "include url(\"" + url + "\")\n"))
          .isInstanceOf(ConfigError.class)
          .hasMessageContaining("include url(" + url + ") is not allowed");
      assertThat(fetched).hasValue(0);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void anIncludeAboveTheLimitIsRefusedWithoutReadingIt() throws IOException {
    Path big = dir.resolve("big.conf");
    try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
      f.setLength(100L << 20); // 100 MB, sparse: refused on its size
    }
    assertThatThrownBy(() -> file("p.conf", SMALL + "include file(\"big.conf\")\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("big.conf: larger than 1 MiB");
  }

  @Test
  void aMissingIncludeIsAnErrorAndARelativeOneIsReadFromTheProfilesDirectory() throws IOException {
    assertThatThrownBy(() -> file("p.conf", SMALL + "include \"nope.conf\"\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("nope.conf: no such file (included)");
    Files.createDirectories(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub/iterations.conf"), "chaos.iterations = 3\n");
    ChaosProfile p = file("sub/p.conf", SMALL + "include \"iterations.conf\"\n");
    assertThat(p.iterations()).isEqualTo(3);
  }

  @Test
  void invalidUtf8IsRefusedWithTheByteOffset() throws IOException {
    Path f = dir.resolve("bad.conf");
    byte[] text = (SMALL + "description = \"x\"\n").getBytes(StandardCharsets.UTF_8);
    int at = text.length - 3;
    text[at] = (byte) 0xfe;
    Files.write(f, text);
    assertThatThrownBy(() -> ChaosProfileParser.load(f.toString()))
        .isInstanceOf(ConfigError.class)
        .hasMessage(f + ": invalid UTF-8 at byte " + at + " (line 4)");
  }

  @Test
  void wholeNumberKeysRefuseDecimalsAndMaxWaitMustBePositive() {
    assertThatThrownBy(() -> parse(SMALL + "chaos.iterations = 2.9\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessage("p.conf:4: chaos.iterations: must be a whole number, got 2.9");
    assertThatThrownBy(() -> parse(SMALL + "machine.numa-nodes = 1.9\n"))
        .hasMessage("p.conf:4: machine.numa-nodes: must be a whole number, got 1.9");
    assertThatThrownBy(() -> parse(SMALL + "chaos.hotpluggable = [1.5]\n"))
        .hasMessageContaining(
            "chaos.hotpluggable: must be a list of whole numbers, got 1.5 at [0]");
    assertThatThrownBy(() -> parse(SMALL + "chaos.max-wait = 0\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith("p.conf:4: chaos.max-wait: must be > 0");
  }

  @Test
  void deepNestingIsOneLine() {
    assertThatThrownBy(() -> parse(SMALL + "x = " + "{a:".repeat(2000) + "}".repeat(2000)))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith("p.conf:4: nested 65 levels deep");
  }

  @Test
  void aRunPastTheCapOfSimulatedTimeOrWithEventsTooDenseIsRefused() {
    assertThatThrownBy(
            () -> parse(SMALL + "chaos { iterations = 10, iteration-runtime = 1000000h }\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessage(
            "p.conf:4: chaos.iteration-runtime: iterations x iteration-runtime = 10 x 1000000h is"
                + " more than the 1h of simulated time a run may take");
    assertThatThrownBy(() -> parse(SMALL + "chaos.hotplug-interval = 1ns\n"))
        .hasMessage(
            "p.conf:4: chaos.hotplug-interval: must be 0 (no random hotplug) or at least 100us");
    assertThatThrownBy(() -> parse(SMALL + "chaos.faults.stall { every = 1us, for = 1us }\n"))
        .hasMessageContaining("chaos.faults.stall.every: must be at least 100us");
    assertThat(parse(SMALL + "chaos { iterations = 100, iteration-runtime = 36s }\n").iterations())
        .isEqualTo(100);
  }

  private static ChaosProfile parse(String text) {
    return ChaosProfileParser.parse(new ChaosProfileParser.Source("p.conf", text), null, false);
  }
}
