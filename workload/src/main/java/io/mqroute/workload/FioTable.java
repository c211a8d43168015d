package io.mqroute.workload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * fio's own option and engine names, as generated from fio's source ({@code options.c}, {@code
 * engines/*}, {@code profiles/*}) by {@code workload/tools/fio-tables.py} into {@code
 * fio-options.txt}: what tells a real fio option mqroute does not model ("not supported") from a
 * typo ("unknown").
 */
final class FioTable {

  /**
   * One fio option.
   *
   * @param name its name in fio's table
   * @param source {@code core} for options.c, else the engine file ({@code io_uring}) or {@code
   *     profile-NAME}
   */
  record Option(String name, String source, String type) {
    boolean engineOption() {
      return !source.equals("core") && !source.startsWith("profile-");
    }

    /** fio's handle_option takes these types without a value ({@code STR_SET}, {@code STR}). */
    boolean bareAllowed() {
      return type.equals("STR_SET") || type.equals("STR") || type.equals("-");
    }
  }

  /**
   * One fio I/O engine.
   *
   * @param flags fio's {@code .flags} ({@code FIO_SYNCIO}, {@code FIO_DISKLESSIO}, ...)
   */
  record Engine(String name, String file, List<String> flags) {}

  private static final String RESOURCE = "fio-options.txt";
  private static final Map<String, Option> OPTIONS = new HashMap<>();
  private static final Map<String, String> CANONICAL = new HashMap<>();
  private static final Map<String, Engine> ENGINES = new HashMap<>();
  private static String commit = "";

  static {
    try (InputStream in = FioTable.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from the workload jar");
      }
      BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String[] f = line.trim().split(" ");
        switch (f[0]) {
          case "fio-commit" -> commit = f[1];
          case "option" -> {
            Option o = new Option(f[1], f[2], f[3]);
            OPTIONS.put(f[1], o);
            CANONICAL.put(f[1], f[1]);
            if (f.length > 4) {
              for (String alias : f[4].split(",")) {
                OPTIONS.putIfAbsent(alias, o);
                CANONICAL.putIfAbsent(alias, f[1]);
              }
            }
          }
          case "engine" ->
              ENGINES.put(
                  f[1],
                  new Engine(f[1], f[2], f[3].equals("-") ? List.of() : List.of(f[3].split(","))));
          default -> {
            // comments
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private FioTable() {}

  /** The fio option for a name or alias, or null when fio has no such option. */
  static Option option(String name) {
    return OPTIONS.get(name);
  }

  /** fio's own name for a name or alias (fio prints options by it), or null. */
  static String canonical(String name) {
    return CANONICAL.get(name);
  }

  /** The fio engine of that name, or null. */
  static Engine engine(String name) {
    return ENGINES.get(name);
  }

  /** The fio commit the table was generated from. */
  static String commit() {
    return commit;
  }

  /** How many option names (aliases included) the table holds. */
  static int size() {
    return OPTIONS.size();
  }
}
