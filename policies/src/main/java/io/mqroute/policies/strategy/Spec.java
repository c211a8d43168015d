package io.mqroute.policies.strategy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One parsed {@code name} or {@code name(arg)} strategy spec.
 *
 * @param name the strategy name, e.g. {@code delayed-retry}
 * @param arg the text between the parentheses, or {@code null} when there are none
 */
public record Spec(String name, String arg) {

  private static final Pattern FORMAT =
      Pattern.compile("([a-z][a-z0-9-]*)\\s*(?:\\(\\s*([^()]*?)\\s*\\))?");

  /** Parses {@code text}; {@code kind} names the strategy family in the error message. */
  public static Spec parse(String kind, String text) {
    Matcher m = FORMAT.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          kind + " must look like name or name(arg), got \"" + text + "\"");
    }
    return new Spec(m.group(1), m.group(2));
  }

  /** Fails if this spec has an argument. */
  public Spec noArg(String kind) {
    if (arg != null) {
      throw new IllegalArgumentException(
          kind + " \"" + name + "\" takes no argument, got \"" + arg + "\"");
    }
    return this;
  }
}
