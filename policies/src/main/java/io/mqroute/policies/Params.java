package io.mqroute.policies;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Typed, validated access to a policy's {@code name -> value} parameters, with error messages that
 * name the parameter and its valid range. The static checks are shared with the builders so that a
 * value set in code and one read from an experiment file fail with the same sentence.
 */
public final class Params {

  private final String owner;
  private final Map<String, String> values;

  private Params(String owner, Map<String, String> values) {
    this.owner = owner;
    this.values = values;
  }

  /**
   * Wraps {@code values} for the policy {@code owner}, rejecting any key not in {@code validKeys}.
   */
  public static Params of(String owner, Map<String, String> values, String... validKeys) {
    List<String> valid = Arrays.asList(validKeys);
    for (String key : values.keySet()) {
      if (!valid.contains(key)) {
        if (valid.isEmpty()) {
          throw new IllegalArgumentException(
              "unknown parameter \"" + key + "\": " + owner + " takes no parameters");
        }
        throw new IllegalArgumentException(
            NameSuggester.unknown("parameter", key, valid) + " for " + owner);
      }
    }
    return new Params(owner, values);
  }

  /** The integer {@code key} in {@code [min, max]}, or {@code def} when absent. */
  public int intValue(String key, int def, int min, int max) {
    String raw = values.get(key);
    if (raw == null) {
      return def;
    }
    int v;
    try {
      v = Integer.parseInt(raw.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          owner + ": " + key + " must be an integer " + range(min, max) + ", got \"" + raw + "\"",
          e);
    }
    if (v < min || v > max) {
      throw new IllegalArgumentException(owner + ": " + message(key, v, min, max));
    }
    return v;
  }

  /** The boolean {@code key} ({@code true} or {@code false}), or {@code def} when absent. */
  public boolean boolValue(String key, boolean def) {
    String raw = values.get(key);
    if (raw == null) {
      return def;
    }
    return switch (raw.trim()) {
      case "true" -> true;
      case "false" -> false;
      default ->
          throw new IllegalArgumentException(
              owner + ": " + key + " must be true or false, got \"" + raw + "\"");
    };
  }

  /** The string {@code key}, or {@code null} when absent. */
  public String stringValue(String key) {
    return values.get(key);
  }

  /**
   * Returns {@code value} if it is in {@code [min, max]}, else throws {@code
   * IllegalArgumentException("<name> must be >= <min>, got <value>")} or {@code "... must be in
   * [min, max], got ..."}.
   */
  public static int checkRange(String name, int value, int min, int max) {
    if (value < min || value > max) {
      throw new IllegalArgumentException(message(name, value, min, max));
    }
    return value;
  }

  private static String message(String name, long value, int min, int max) {
    return name + " must be " + range(min, max) + ", got " + value;
  }

  /** {@code ">= min"} for an open upper end, else {@code "in [min, max]"}. */
  public static String range(int min, int max) {
    return max == Integer.MAX_VALUE ? ">= " + min : "in [" + min + ", " + max + "]";
  }
}
