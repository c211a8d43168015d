package io.mqroute.actors.device;

import java.util.Locale;

/** Durations with an explicit unit ({@code 40us}, {@code 1.5ms}, {@code 2s}); a bare number is an error. */
public final class Durations {
  private Durations() {}

  /** @throws IllegalArgumentException naming the value and the accepted units */
  public static long parseNanos(String text) {
    String s = text.strip().toLowerCase(Locale.ROOT).replace("µs", "us");
    int i = 0;
    while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
      i++;
    }
    String num = s.substring(0, i);
    String unit = s.substring(i).strip();
    long scale =
        switch (unit) {
          case "ns" -> 1L;
          case "us" -> 1_000L;
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m", "min" -> 60_000_000_000L;
          default -> -1L;
        };
    if (num.isEmpty() || scale < 0) {
      throw new IllegalArgumentException(
          "bad duration \"" + text + "\" (expected a number with a unit: ns, us, ms, s, min)");
    }
    double v;
    try {
      v = Double.parseDouble(num);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("bad duration \"" + text + "\"");
    }
    return Math.round(v * scale);
  }

  /** The largest unit that keeps the value whole, e.g. 40000 → {@code 40us}. */
  public static String format(long nanos) {
    if (nanos != 0 && nanos % 1_000_000_000L == 0) {
      return nanos / 1_000_000_000L + "s";
    }
    if (nanos != 0 && nanos % 1_000_000L == 0) {
      return nanos / 1_000_000L + "ms";
    }
    if (nanos != 0 && nanos % 1_000L == 0) {
      return nanos / 1_000L + "us";
    }
    return nanos + "ns";
  }
}
