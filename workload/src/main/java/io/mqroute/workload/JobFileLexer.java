package io.mqroute.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Splits fio's two input forms into sections of raw {@code key[=value]} options, without
 * interpreting values: the INI job file and the command line ({@code --name=...} starts a job).
 *
 * <p>Comments follow fio 3.33 (checked): in a job file, everything from the first {@code ;} or
 * {@code #} on a line is a comment, wherever it appears, so {@code filename=/tmp/a#b} means {@code
 * /tmp/a} (fio does the same). Command-line arguments have no comments. Blanks around keys, values
 * and section names are ignored ({@code bs = 16k} is 16k; fio 3.33 itself mis-reads that as 16
 * bytes).
 */
final class JobFileLexer {

  /** One {@code key=value} or bare {@code key}; {@code value} is null for a bare key. */
  record RawOption(String key, String value, int line) {}

  /**
   * A {@code [name]} section (or a {@code --name=} job on a command line) and its options in order.
   */
  record RawSection(String name, boolean global, int line, List<RawOption> options) {}

  private JobFileLexer() {}

  static List<RawSection> lexJobFile(String source, String text) {
    List<RawSection> sections = new ArrayList<>();
    RawSection current = null;
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String line = stripComment(lines[i]).trim();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("[")) {
        if (!line.endsWith("]") || line.length() < 2) {
          throw new FioParseException(
              source, lineNo, "bad section header \"" + line + "\" (expected [name])");
        }
        String name = line.substring(1, line.length() - 1).trim();
        if (name.isEmpty()) {
          throw new FioParseException(source, lineNo, "empty section name \"" + line + "\"");
        }
        // fio's parse_jobs_ini: any section whose name starts with "global" ([global-extra] too) is
        // global
        current = new RawSection(name, isGlobal(name), lineNo, new ArrayList<>());
        sections.add(current);
        continue;
      }
      if (line.equals("include") || line.startsWith("include ")) {
        throw new FioParseException(
            source,
            lineNo,
            "include directives are not supported (put the included options in this file)");
      }
      RawOption option = option(source, lineNo, line);
      if (current == null) {
        throw new FioParseException(
            source, lineNo, "option \"" + option.key() + "\" appears before any [section]");
      }
      current.options().add(option);
    }
    return sections;
  }

  static List<RawSection> lexCommandLine(List<String> args) {
    String source = FioParseException.COMMAND_LINE;
    List<RawSection> sections = new ArrayList<>();
    RawSection current = null;
    for (int i = 0; i < args.size(); i++) {
      int argNo = i + 1;
      String arg = args.get(i);
      if (!arg.startsWith("--") || arg.length() == 2) {
        throw new FioParseException(source, argNo, "expected --option=value, got \"" + arg + "\"");
      }
      RawOption option = option(source, argNo, arg.substring(2));
      if (option.key().equals("name")) {
        if (option.value() == null || option.value().isEmpty()) {
          throw new FioParseException(source, argNo, "--name needs a value, like --name=job1");
        }
        boolean global = isGlobal(option.value());
        current = new RawSection(option.value(), global, argNo, new ArrayList<>());
        if (!global) {
          current.options().add(option); // fio lists name among a job's options
        }
        sections.add(current);
        continue;
      }
      if (current == null) {
        // like fio: options before the first --name are global
        current = new RawSection("global", true, argNo, new ArrayList<>());
        sections.add(current);
      }
      current.options().add(option);
    }
    return sections;
  }

  /**
   * fio's test for a global section, in job files and on the command line: the name starts with
   * "global".
   */
  private static boolean isGlobal(String name) {
    return name.startsWith("global");
  }

  private static RawOption option(String source, int lineNo, String text) {
    int eq = text.indexOf('=');
    String key = (eq < 0 ? text : text.substring(0, eq)).trim();
    String value = eq < 0 ? null : expandEnvironment(text.substring(eq + 1).trim(), ENVIRONMENT);
    if (key.isEmpty() || key.chars().anyMatch(Character::isWhitespace)) {
      throw new FioParseException(
          source, lineNo, "expected option=value or a bare flag, got \"" + text + "\"");
    }
    return new RawOption(key, value, lineNo);
  }

  /** Where {@code ${NAME}} is looked up: the process environment, as fio does. */
  static final Function<String, String> ENVIRONMENT = System::getenv;

  /**
   * fio's env variable expansion in option values (init.c, {@code fio_option_dup_subs}): each
   * {@code ${NAME}} is replaced by the variable's value; one that is not set stays as written, as
   * in fio (a size or number that still holds it is then a bad value naming it).
   */
  static String expandEnvironment(String value, Function<String, String> environment) {
    int at = value.indexOf("${");
    if (at < 0) {
      return value;
    }
    StringBuilder out = new StringBuilder();
    int from = 0;
    while (at >= 0) {
      int end = value.indexOf('}', at + 2);
      if (end < 0) {
        break;
      }
      String v = environment.apply(value.substring(at + 2, end));
      out.append(value, from, at).append(v != null ? v : value.substring(at, end + 1));
      from = end + 1;
      at = value.indexOf("${", from);
    }
    return out.append(value.substring(from)).toString();
  }

  /** fio's {@code strip_blank_end}: cut at the first ';', then at the first '#'. */
  private static String stripComment(String line) {
    int semicolon = line.indexOf(';');
    if (semicolon >= 0) {
      line = line.substring(0, semicolon);
    }
    int hash = line.indexOf('#');
    return hash >= 0 ? line.substring(0, hash) : line;
  }
}
