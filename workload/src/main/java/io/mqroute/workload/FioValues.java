package io.mqroute.workload;

import io.mqroute.metrics.PercentileList;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for the value types of fio options (HOWTO "Parameter types"). Each throws {@link
 * BadValue} carrying what was expected; the caller adds the file, line and option name.
 */
final class FioValues {

  static final String SIZE_HINT = "a size like 4k, 64KiB";
  static final String TIME_HINT = "a time like 30, 30s, 500ms, 2m, 1h";
  static final String MICROS_TIME_HINT = "a time like 100 (microseconds), 50us or 2ms";

  private static final Pattern DECIMAL_WITH_SUFFIX = Pattern.compile("([0-9]+)([A-Za-z]*)");
  private static final Pattern HEX = Pattern.compile("0[xX]([0-9a-fA-F]+)");
  private static final Pattern PLAIN_NUMBER = Pattern.compile("[0-9]+");
  private static final Pattern PERCENTILE = Pattern.compile("[0-9]+(\\.[0-9]+)?");
  private static final long NS_PER_S = 1_000_000_000L;

  private FioValues() {}

  /**
   * A value fio would not take (or mqroute does not model); {@link #expected} completes the
   * message.
   */
  static final class BadValue extends Exception {
    private static final long serialVersionUID = 1L;
    final String expected;

    BadValue(String expected) {
      super(expected, null, false, false);
      this.expected = expected;
    }
  }

  /**
   * A size before {@code kb_base} is known: {@code mantissa * base^power}, where the base is {@code
   * kb_base} for the SI-looking suffixes (k, kB, m, MB, ...) and the other of 1000/1024 for the
   * IEC-looking ones (KiB, MiB, ...). That is fio's compatibility rule: with the default {@code
   * kb_base=1024}, {@code 4k} is 4096 and {@code 4KiB} is 4000; with {@code kb_base=1000}, {@code
   * 4k} is 4000 and {@code 4KiB} is 4096.
   */
  record SizeValue(long mantissa, int power, boolean iecName) {

    /** The size in bytes under {@code kbBase}; throws ArithmeticException on overflow. */
    long bytes(int kbBase) {
      long base = iecName ? (kbBase == 1024 ? 1000 : 1024) : kbBase;
      long out = mantissa;
      for (int i = 0; i < power; i++) {
        out = Math.multiplyExact(out, base);
      }
      return out;
    }
  }

  /**
   * Read and write halves of a {@code bs=r,w} style value; null means fio's default for that half.
   */
  record Pair<T>(T read, T write) {}

  static SizeValue size(String raw) throws BadValue {
    if (raw.contains("${")) {
      throw new BadValue(SIZE_HINT + "; environment variables are not expanded");
    }
    if (raw.endsWith("%")) {
      throw new BadValue(SIZE_HINT + "; percentages are not supported");
    }
    Matcher hex = HEX.matcher(raw);
    if (hex.matches()) {
      try {
        return new SizeValue(Long.parseLong(hex.group(1), 16), 0, false);
      } catch (NumberFormatException e) {
        throw new BadValue(SIZE_HINT + "; the number is too large");
      }
    }
    Matcher m = DECIMAL_WITH_SUFFIX.matcher(raw);
    if (!m.matches()) {
      throw new BadValue(SIZE_HINT);
    }
    long mantissa;
    try {
      mantissa = Long.parseLong(m.group(1));
    } catch (NumberFormatException e) {
      throw new BadValue(SIZE_HINT + "; the number is too large");
    }
    String suffix = m.group(2).toLowerCase(Locale.ROOT);
    if (suffix.isEmpty() || suffix.equals("b")) {
      return new SizeValue(mantissa, 0, false);
    }
    int power = "kmgtp".indexOf(suffix.charAt(0)) + 1;
    String rest = suffix.substring(1);
    if (power == 0) {
      throw new BadValue(SIZE_HINT);
    }
    switch (rest) {
      case "", "b":
        return new SizeValue(mantissa, power, false);
      case "ib":
        return new SizeValue(mantissa, power, true);
      case "i":
        // fio 3.33 reads "4ki" as 4k (kb_base), its HOWTO says 4KiB: refuse to guess.
        throw new BadValue(
            SIZE_HINT
                + "; \""
                + suffix
                + "\" is ambiguous (fio and its HOWTO disagree),"
                + " write "
                + suffix.charAt(0)
                + " or "
                + Character.toUpperCase(suffix.charAt(0))
                + "iB");
      default:
        throw new BadValue(SIZE_HINT);
    }
  }

  /** A size that must be above zero. */
  static SizeValue positiveSize(String raw) throws BadValue {
    SizeValue v = size(raw);
    if (v.mantissa() == 0) {
      throw new BadValue(SIZE_HINT + " above 0");
    }
    return v;
  }

  /**
   * fio's per-direction values ({@code bs=4k,64k}): one value applies to reads and writes; with
   * commas the first is for reads, the second for writes, an empty part keeps fio's default, and a
   * third (trim) part is accepted and ignored. Without a comma fio's {@code handle_option} splits
   * on {@code ':'}, and without that on {@code '-'}, so {@code 4k:64k} and {@code 4k-64k} mean
   * {@code 4k,64k} (none of these values can be negative, so the '-' is never a sign).
   */
  static <T> Pair<T> pair(String raw, Parser<T> one, String hint) throws BadValue {
    String separator = raw.indexOf(',') >= 0 ? "," : raw.indexOf(':') >= 0 ? ":" : "-";
    String[] parts = raw.split(Pattern.quote(separator), -1);
    if (parts.length > 3) {
      throw new BadValue(hint);
    }
    if (parts.length == 1) {
      T v = one.parse(parts[0].trim());
      return new Pair<>(v, v);
    }
    String r = parts[0].trim();
    String w = parts[1].trim();
    if (r.isEmpty() && w.isEmpty()) {
      throw new BadValue(hint);
    }
    return new Pair<>(r.isEmpty() ? null : one.parse(r), w.isEmpty() ? null : one.parse(w));
  }

  /** A value parser that may reject its input. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(String raw) throws BadValue;
  }

  /**
   * A time in ns. A bare number is in seconds (fio's default for {@code runtime}, {@code
   * ramp_time}, {@code startdelay}); suffixes, any case: d, h, m (minutes), s, ms or msec, us or
   * usec. {@code sec} is refused: fio's {@code get_mult_time} knows only an exact {@code s}, and
   * reads any suffix it does not know as microseconds, so fio would run {@code runtime=30sec} for
   * 30 us.
   */
  static long timeNs(String raw) throws BadValue {
    return timeNs(raw, NS_PER_S, TIME_HINT);
  }

  /** A time whose bare number is in microseconds (thinktime=, thinktime_spin=). */
  static long microsTimeNs(String raw) throws BadValue {
    return timeNs(raw, 1_000L, MICROS_TIME_HINT);
  }

  private static long timeNs(String raw, long bareUnit, String hint) throws BadValue {
    Matcher m = DECIMAL_WITH_SUFFIX.matcher(raw);
    if (!m.matches()) {
      throw new BadValue(hint);
    }
    long unit =
        switch (m.group(2).toLowerCase(Locale.ROOT)) {
          case "" -> bareUnit;
          case "s" -> NS_PER_S;
          case "sec" ->
              throw new BadValue(
                  hint
                      + "; write "
                      + m.group(1)
                      + "s, fio would read \""
                      + raw
                      + "\" as "
                      + m.group(1)
                      + " microseconds");
          case "ms", "msec" -> 1_000_000L;
          case "us", "usec" -> 1_000L;
          case "m" -> 60 * NS_PER_S;
          case "h" -> 3_600 * NS_PER_S;
          case "d" -> 86_400 * NS_PER_S;
          default -> throw new BadValue(hint);
        };
    try {
      return Math.multiplyExact(Long.parseLong(m.group(1)), unit);
    } catch (NumberFormatException | ArithmeticException e) {
      throw new BadValue(hint + "; the time is too long");
    }
  }

  /** A whole number in [min, max]. */
  static int integer(String raw, int min, int max) throws BadValue {
    String hint = "a whole number " + (max == Integer.MAX_VALUE ? ">= " + min : min + "-" + max);
    if (!PLAIN_NUMBER.matcher(raw).matches()) {
      throw new BadValue(hint);
    }
    long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new BadValue(hint);
    }
    if (v < min || v > max) {
      throw new BadValue(hint);
    }
    return (int) v;
  }

  /** fio's bool: 0 or 1. */
  static boolean bool(String raw) throws BadValue {
    return switch (raw) {
      case "0" -> false;
      case "1" -> true;
      default -> throw new BadValue("0 or 1");
    };
  }

  /** A CPU list: comma-separated CPU numbers and inclusive ranges, {@code 0-3,8,10-11}. */
  static CpuList cpuList(String raw) throws BadValue {
    String hint = "a CPU list like 0-3,8,10-11";
    TreeSet<Integer> cpus = new TreeSet<>();
    for (String item : raw.split(",", -1)) {
      String[] ends = item.split("-", -1);
      if (ends.length > 2) {
        throw new BadValue(hint);
      }
      int from = integer(ends[0].trim(), 0, 4095, hint);
      int to = ends.length == 2 ? integer(ends[1].trim(), 0, 4095, hint) : from;
      if (to < from) {
        throw new BadValue(hint + "; a range must go upwards");
      }
      for (int c = from; c <= to; c++) {
        cpus.add(c);
      }
    }
    return new CpuList(new ArrayList<>(cpus), raw);
  }

  private static int integer(String raw, int min, int max, String hint) throws BadValue {
    try {
      return integer(raw, min, max);
    } catch (BadValue e) {
      throw new BadValue(hint);
    }
  }

  /** fio's {@code percentile_list}: up to 20 numbers in (0, 100] separated by colons. */
  static PercentileList percentiles(String raw) throws BadValue {
    String hint = "up to 20 percentiles in (0,100] separated by ':', like 50:99:99.9";
    String[] items = raw.split(":", -1);
    if (items.length > PercentileList.MAX_VALUES) {
      throw new BadValue(hint);
    }
    List<Double> values = new ArrayList<>();
    int precision = 0;
    for (String item : items) {
      String t = item.trim();
      if (!PERCENTILE.matcher(t).matches()) {
        throw new BadValue(hint);
      }
      BigDecimal v = new BigDecimal(t);
      if (v.signum() <= 0 || v.compareTo(BigDecimal.valueOf(100)) > 0) {
        throw new BadValue(hint);
      }
      values.add(v.doubleValue());
      int dot = t.indexOf('.');
      precision = Math.max(precision, dot < 0 ? 0 : t.length() - dot - 1);
    }
    return new PercentileList(values, Math.min(precision, 6));
  }
}
