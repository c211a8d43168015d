package io.mqroute.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every HOCON input (experiments, chaos profiles, replay and node files) goes through: bounded
 * UTF-8 files, includes relative to the file, nesting limits before the parser recurses, and whole
 * numbers that stay whole. Each malformed input is one {@link ConfigError} naming file and line.
 */
class HoconInputTest {
  @TempDir Path dir;

  private static final long MAX = 1 << 20;

  private Path write(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  // ---- nesting (item 9)

  @Test
  void deepNestingIsOneLineNamingFileAndLineNotAStackOverflow() throws IOException {
    Path f = write("deep.conf", "name = x\nx = " + "{a:".repeat(2000) + "1" + "}".repeat(2000));
    assertThatThrownBy(() -> FileIncluder.parse(f, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith(f + ":2: nested 65 levels deep")
        .hasMessageContaining("at most 64");
    Path lists = write("lists.conf", "x = " + "[".repeat(100) + "]".repeat(100));
    assertThatThrownBy(() -> FileIncluder.parse(lists, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith(lists + ":1: nested 65 levels deep");
  }

  @Test
  void sixtyFourLevelsAreFineAndBracesInStringsAndCommentsDoNotCount() throws IOException {
    String ok = "x = " + "{a:".repeat(64) + "1" + "}".repeat(64) + "\n";
    String noise =
        "# {{{{"
            + "{".repeat(100)
            + "\n// "
            + "[".repeat(100)
            + "\ns = \""
            + "{".repeat(100)
            + "\"\nt = \"\"\""
            + "[".repeat(100)
            + "\n"
            + "{".repeat(100)
            + "\"\"\"\n"
            + "u = ${x"
            + ".a".repeat(64)
            + "}\n"
            + "v = 1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23.24.25.26.27.28.29"
            + ".30.31.32.33.34.35.36.37.38.39.40.41.42.43.44.45.46.47.48.49.50.51.52.53.54.55.56"
            + ".57.58.59.60.61.62.63.64.65.66\n";
    Path f = write("ok.conf", ok + noise);
    Config c = FileIncluder.resolve(FileIncluder.parse(f, MAX).toConfig(), f.toString());
    assertThat(c.getString("s")).hasSize(100);
    assertThat(c.getInt("u")).isEqualTo(1);
  }

  @Test
  void aDottedKeyOpensALevelPerDot() throws IOException {
    // a 6 KB key a.a.a...: Typesafe builds the objects, then overflows walking them
    Path f = write("dots.conf", "x." + "a.".repeat(3000) + "b = 1\n");
    assertThatThrownBy(() -> FileIncluder.parse(f, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith(f + ":1: nested 3001 levels deep");
    Path quoted = write("quoted.conf", "\"x\"" + ".\"a\"".repeat(70) + " = 1\n");
    assertThatThrownBy(() -> FileIncluder.parse(quoted, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith(quoted + ":1: nested 70 levels deep");
  }

  @Test
  void nestingAcrossIncludesCountsTheIncludedFileToo() throws IOException {
    write("inner.conf", "y = " + "{a:".repeat(40) + "1" + "}".repeat(40) + "\n");
    // include is a member of an object: { include "inner.conf" } at 40 levels
    String outer = "x = " + "{a:".repeat(39) + "{ include \"inner.conf\" }" + "}".repeat(39);
    Path f = write("outer.conf", outer + "\n");
    assertThatThrownBy(() -> FileIncluder.parse(f, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("inner.conf:1: nested more than 64 levels deep");
  }

  @Test
  void aLongChainOfSubstitutionsIsOneLineNotAStackOverflow() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5000; i++) {
      sb.append("k").append(i).append(" = ${k").append(i + 1).append("}\n");
    }
    Path f = write("chain.conf", sb.append("k5000 = 1\n").toString());
    Config raw = FileIncluder.parse(f, MAX).toConfig();
    assertThatThrownBy(() -> FileIncluder.resolve(raw, f.toString()))
        .isInstanceOf(ConfigError.class)
        .hasMessage(f + ": substitutions (${...}) refer to each other too deeply to resolve");
  }

  // ---- includes of a text (item 8)

  @Test
  void aTextIncludesRelativeToItsDirectoryAndRefusesMissingUrlAndHugeIncludes() throws IOException {
    write("part.conf", "b = 2\n");
    Config c = FileIncluder.parse("a = 1\ninclude \"part.conf\"\n", "p.conf", dir, MAX).toConfig();
    assertThat(c.getInt("b")).isEqualTo(2);
    assertThatThrownBy(() -> FileIncluder.parse("include \"nope.conf\"\n", "p.conf", dir, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("nope.conf: no such file (included)");
    assertThatThrownBy(
            () -> FileIncluder.parse("include url(\"http://127.0.0.1:9/x.conf\")", "p", dir, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("include url(http://127.0.0.1:9/x.conf) is not allowed");
    write("big.conf", "x = \"" + "a".repeat((int) MAX) + "\"\n");
    assertThatThrownBy(() -> FileIncluder.parse("include file(\"big.conf\")", "p", dir, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("big.conf: larger than 1 MiB");
  }

  // ---- UTF-8 (item 14a)

  @Test
  void invalidUtf8IsRefusedWithItsByteOffsetAndLine() throws IOException {
    byte[] bad = "a = 1\nb = \"x\"\nc = \"caf\u00e9 \"\n".getBytes(StandardCharsets.UTF_8);
    int at =
        new String(bad, StandardCharsets.UTF_8).indexOf('\u00e9') + 0; // chars = bytes before é
    bad[at] = (byte) 0xff;
    Path f = dir.resolve("bad.conf");
    Files.write(f, bad);
    assertThatThrownBy(() -> BoundedFiles.readString(f, MAX))
        .isInstanceOf(BoundedFiles.Refused.class)
        .hasMessage("invalid UTF-8 at byte " + at + " (line 3)");
    assertThatThrownBy(() -> FileIncluder.parse(f, MAX))
        .isInstanceOf(ConfigError.class)
        .hasMessage(f + ": invalid UTF-8 at byte " + at + " (line 3)");
    // a sequence cut off at the end of the file
    Files.write(f, new byte[] {'a', '=', (byte) 0xc3});
    assertThatThrownBy(() -> BoundedFiles.readString(f, MAX))
        .hasMessage("invalid UTF-8 at byte 2 (line 1)");
    Files.writeString(f, "s = \"\u00e9\u4e2d\ud83d\ude00\"\n");
    assertThat(BoundedFiles.readString(f, MAX)).isEqualTo("s = \"\u00e9\u4e2d\ud83d\ude00\"\n");
  }

  // ---- whole numbers (item 12)

  private static StrictConfig strict(String text) {
    return StrictConfig.of(
        ConfigFactory.parseString(text), "q", List.of("ring-size", "n", "s", "l", "big"));
  }

  @Test
  void aWholeNumberKeyRefusesADecimalInsteadOfTruncatingIt() {
    assertThatThrownBy(() -> strict("ring-size = 1.5").integer("ring-size", 128, 1, 1 << 20))
        .isInstanceOf(ConfigError.class)
        .hasMessage(
            "String: 1: q.ring-size: must be a whole number, got 1.5"
                .replace("String: 1: ", "<string>:1: "));
    assertThatThrownBy(() -> strict("n = 1.9").integer("n", 1, 1, 64))
        .hasMessageContaining("q.n: must be a whole number, got 1.9");
    assertThatThrownBy(() -> strict("s = \"2.9\"").integer("s", 1, 1, 64))
        .hasMessageContaining("q.s: must be a whole number, got \"2.9\"");
    assertThatThrownBy(() -> strict("big = 1e30").integer("big", 1, 1, 64))
        .hasMessageContaining("q.big: must be in [1, 64], got 1.0E30");
    assertThatThrownBy(() -> strict("big = 4294967297").integer("big", 1, 1, 64))
        .hasMessageContaining("q.big: must be in [1, 64], got 4294967297");
    assertThatThrownBy(() -> strict("l = [1, 2.5]").ints("l", List.of()))
        .hasMessageContaining("q.l: must be a list of whole numbers, got 2.5 at [1]");
    assertThatThrownBy(() -> strict("l = [1, 4294967297]").ints("l", List.of()))
        .hasMessageContaining("got 4294967297 at [1]");
    assertThat(strict("ring-size = 256").integer("ring-size", 1, 1, 1 << 20)).isEqualTo(256);
    assertThat(strict("n = \"12\"").integer("n", 1, 1, 64)).isEqualTo(12);
    assertThat(strict("n = 2.0").integer("n", 1, 1, 64)).isEqualTo(2);
    assertThat(strict("l = [1, 2, \"3\"]").ints("l", List.of())).containsExactly(1, 2, 3);
  }
}
