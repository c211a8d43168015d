package io.mqroute.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import org.junit.jupiter.api.Test;

/** Triple-quoted strings rewritten so that every value keeps its line, with the same values. */
class HoconTextTest {
  private static final String TEXT =
      String.join(
          "\n",
          "w = \"\"\"", // 1
          "[global]  # not a comment \"quoted\" \\ back",
          "rw=read",
          "\"\"\"", // 4
          "v = [", // 5
          "  { n = 1 }", // 6
          "]",
          "x = []", // 8
          "s = \"a \\\"\"\"\" b\"  # \"\"\" in a string and a comment", // 9
          "t = \"\"\"one\"\"\", u = 2", // 10
          "e = \"\"\"ends \"quoted\"\"\"\"", // 11
          "y = 3"); // 12

  @Test
  void valuesAreTheSameAsTypesafeReadsThem() {
    Config original = ConfigFactory.parseString(TEXT);
    Config rewritten = ConfigFactory.parseString(HoconText.singleLineStrings(TEXT));
    assertThat(rewritten.root().unwrapped()).isEqualTo(original.root().unwrapped());
    assertThat(rewritten.getString("w"))
        .isEqualTo("\n[global]  # not a comment \"quoted\" \\ back\nrw=read\n");
    assertThat(rewritten.getString("e")).isEqualTo("ends \"quoted\"");
  }

  @Test
  void everyValueKeepsItsLine() {
    Config c = ConfigFactory.parseString(HoconText.singleLineStrings(TEXT));
    assertThat(c.getValue("w").origin().lineNumber()).isEqualTo(1);
    assertThat(c.getValue("v").origin().lineNumber()).isEqualTo(5);
    assertThat(c.getObjectList("v").get(0).origin().lineNumber()).isEqualTo(6);
    assertThat(c.getValue("x").origin().lineNumber()).isEqualTo(8);
    assertThat(c.getValue("s").origin().lineNumber()).isEqualTo(9);
    assertThat(c.getValue("u").origin().lineNumber()).isEqualTo(10);
    assertThat(c.getValue("y").origin().lineNumber()).isEqualTo(12);
    // Typesafe Config up to 1.4.5 numbered the containers after a multi-line string short by its
    // newlines (the bug the rewrite works around); 1.4.9, Pekko 1.7.0's, agrees with the rewrite
    Config plain = ConfigFactory.parseString(TEXT);
    assertThat(plain.getValue("x").origin().lineNumber()).isEqualTo(8);
  }

  @Test
  void anUnterminatedStringIsLeftForTheParserToReport() {
    assertThat(HoconText.singleLineStrings("a = \"\"\"open\nb = 1\n"))
        .isEqualTo("a = \"\"\"open\nb = 1\n");
  }
}
