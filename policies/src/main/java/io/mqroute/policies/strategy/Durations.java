package io.mqroute.policies.strategy;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses and prints the durations of strategy specs: {@code 40us}, {@code 500us}, {@code 1ms},
 * {@code 2s}.
 */
public final class Durations {

  private static final Pattern FORMAT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|µs|ms|s)");

  private Durations() {}

  /**
   * Nanoseconds of {@code text} ({@code <number><unit>}, unit one of ns, us, µs, ms, s; decimals
   * allowed if the result is a whole number of nanoseconds).
   *
   * @param what the parameter name used in the error message
   */
  public static long parseNanos(String what, String text) {
    Matcher m = FORMAT.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          what + " must be a duration like 40us, 1ms or 2s, got \"" + text + "\"");
    }
    long unit =
        switch (m.group(2)) {
          case "ns" -> 1L;
          case "us", "µs" -> 1_000L;
          case "ms" -> 1_000_000L;
          default -> 1_000_000_000L;
        };
    try {
      return new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(unit)).longValueExact();
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException(
          what + " must be a whole number of nanoseconds below 2^63, got \"" + text + "\"", e);
    }
  }

  /** The shortest exact form: {@code 1000000 -> "1ms"}, {@code 1500 -> "1500ns"}. */
  public static String format(long nanos) {
    if (nanos != 0) {
      if (nanos % 1_000_000_000L == 0) {
        return nanos / 1_000_000_000L + "s";
      }
      if (nanos % 1_000_000L == 0) {
        return nanos / 1_000_000L + "ms";
      }
      if (nanos % 1_000L == 0) {
        return nanos / 1_000L + "us";
      }
    }
    return nanos + "ns";
  }
}
