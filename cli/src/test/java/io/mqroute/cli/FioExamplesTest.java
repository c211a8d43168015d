package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio's own example job files (src/test/resources/fio-examples, fio commit f5344384) run as {@code
 * mqroute run FILE.fio --set fio.runtime=20ms --set fio.ramp_time=0}, as
 * workload/tools/fio-examples.sh runs them (the short runtime keeps 107 runs to a few minutes; no
 * refusal depends on it): each one's result (ran, or the one line of its refusal) and the count
 * must be what docs/fio-jobs.md lists, so a change that makes an example run or stop running fails
 * here until the list is regenerated.
 */
@Tag("integration")
class FioExamplesTest {
  private static final Path EXAMPLES = Path.of("src", "test", "resources", "fio-examples");
  private static final Path DOC = Path.of("..", "docs", "fio-jobs.md");
  private static final Pattern ROW = Pattern.compile("^\\| `([^`]+\\.fio)` \\| (.*) \\|$");
  private static final Pattern COUNT =
      Pattern.compile("\\*\\*(\\d+) of (\\d+)\\*\\* of fio's examples run as shipped");

  /** The result column of the script: "ran", "refused: LINE" or "broke (exit 1): LINE". */
  private static String result(Path file, Path out) {
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    int exit =
        Main.execute(
            new String[] {
              "run",
              file.toString(),
              "--brief",
              "--parallel",
              "1",
              "--set",
              "fio.runtime=20ms",
              "--set",
              "fio.ramp_time=0",
              "--out",
              out.toString()
            },
            new PrintWriter(stdout, true),
            new PrintWriter(stderr, true));
    if (exit == 0) {
      return "ran";
    }
    String prefix = file.getParent().toString() + "/";
    String why =
        stderr
            .toString()
            .lines()
            .filter(l -> !l.matches("^mqroute: .*note:.*"))
            .findFirst()
            .orElseGet(() -> last(stdout.toString()));
    why = why.replace(prefix, "");
    if (why.startsWith("mqroute: ")) {
      why = why.substring("mqroute: ".length());
    }
    return (exit == 1 ? "broke (exit 1)" : "refused") + ": " + why;
  }

  private static String last(String text) {
    List<String> lines = text.lines().toList();
    return lines.isEmpty() ? "" : lines.get(lines.size() - 1);
  }

  private static Map<String, String> listed(String doc) {
    Map<String, String> rows = new LinkedHashMap<>();
    int start = doc.indexOf("<!-- fio-examples:start");
    int end = doc.indexOf("<!-- fio-examples:end");
    for (String line : doc.substring(start, end).lines().toList()) {
      Matcher m = ROW.matcher(line);
      if (m.matches()) {
        rows.put(m.group(1), m.group(2).replace("\\|", "|"));
      }
    }
    return rows;
  }

  @Test
  void everyExampleRunsOrIsRefusedAsTheDocsList(@TempDir Path out) throws IOException {
    String doc = Files.readString(DOC);
    Map<String, String> listed = listed(doc);
    List<Path> files;
    try (Stream<Path> s = Files.list(EXAMPLES)) {
      files = s.filter(p -> p.toString().endsWith(".fio")).sorted().toList();
    }
    assertThat(files).hasSize(107);
    Map<String, String> got = new LinkedHashMap<>();
    for (Path f : files) {
      String name = f.getFileName().toString();
      got.put(name, result(f.toAbsolutePath(), out.resolve(name)));
    }
    long ran = got.values().stream().filter("ran"::equals).count();
    Matcher count = COUNT.matcher(doc);
    assertThat(count.find()).as("the count line in docs/fio-jobs.md").isTrue();
    StringBuilder diff = new StringBuilder();
    got.forEach(
        (name, r) -> {
          if (!r.equals(listed.get(name))) {
            diff.append("\n  ")
                .append(name)
                .append(": ")
                .append(r)
                .append("\n    docs: ")
                .append(listed.get(name));
          }
        });
    assertThat(diff.toString())
        .as(
            "results that differ from docs/fio-jobs.md (regenerate it with"
                + " workload/tools/fio-examples.sh --write)")
        .isEmpty();
    assertThat(listed).hasSameSizeAs(got);
    assertThat(Long.parseLong(count.group(1))).isEqualTo(ran);
    assertThat(Long.parseLong(count.group(2))).isEqualTo(files.size());
    assertThat(got.values()).noneMatch(r -> r.startsWith("broke"));
  }
}
