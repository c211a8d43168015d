package io.mqroute.workload;

import io.mqroute.actors.machine.OffsetDistribution;
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

    /** The value is fio's, and the model cannot honour it: {@link #expected} says why. */
    final boolean notSupported;

    BadValue(String expected) {
      this(expected, false);
    }

    BadValue(String expected, boolean notSupported) {
      super(expected, null, false, false);
      this.expected = expected;
      this.notSupported = notSupported;
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

    /** {@code N%}: a share of the device (fio: of the file or device size). */
    static SizeValue percent(long p) {
      return new SizeValue(p, -1, false);
    }

    boolean isPercent() {
      return power == -1;
    }

    /** {@code Nz}: N zones of the job's zonesize. */
    static SizeValue zones(long n) {
      return new SizeValue(n, -2, false);
    }

    boolean isZones() {
      return power == -2;
    }

    /** The size in bytes under {@code kbBase}; throws ArithmeticException on overflow. */
    long bytes(int kbBase) {
      if (power < 0) {
        throw new IllegalStateException("a percentage has no size of its own");
      }
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
      throw new BadValue(SIZE_HINT + "; " + unsetVariable(raw));
    }
    if (raw.endsWith("%") && PLAIN_NUMBER.matcher(raw.substring(0, raw.length() - 1)).matches()) {
      long p = Long.parseLong(raw.substring(0, raw.length() - 1));
      if (p > 100) {
        throw new BadValue(SIZE_HINT + ", or a percentage 0%-100% of the device");
      }
      return SizeValue.percent(p);
    }
    if (raw.length() > 1
        && (raw.endsWith("z") || raw.endsWith("Z"))
        && PLAIN_NUMBER.matcher(raw.substring(0, raw.length() - 1)).matches()) {
      // fio's "z" suffix: a number of zones (zonesize, default 256 MiB)
      return SizeValue.zones(Long.parseLong(raw.substring(0, raw.length() - 1)));
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

  /** The message for a value that still holds an unset {@code ${NAME}}. */
  static String unsetVariable(String raw) {
    int at = raw.indexOf("${");
    int end = raw.indexOf('}', at);
    String name = end < 0 ? raw.substring(at) : raw.substring(at, end + 1);
    return name + " is an environment variable that is not set (fio leaves it as written too)";
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
    return pair(raw.split(Pattern.quote(separator), -1), one, hint);
  }

  /** fio's per-direction values separated by commas only (FIO_OPT_RANGE, bssplit). */
  static <T> Pair<T> commaPair(String raw, Parser<T> one, String hint) throws BadValue {
    return pair(raw.split(",", -1), one, hint);
  }

  private static <T> Pair<T> pair(String[] parts, Parser<T> one, String hint) throws BadValue {
    if (parts.length > 3) {
      throw new BadValue(hint);
    }
    String r = parts[0].trim();
    if (parts.length == 1) {
      T v = one.parse(r);
      return new Pair<>(v, v);
    }
    String w = parts[1].trim();
    if (r.isEmpty() && w.isEmpty()) {
      throw new BadValue(hint);
    }
    return new Pair<>(r.isEmpty() ? null : one.parse(r), w.isEmpty() ? null : one.parse(w));
  }

  static final String RANGE_HINT = "a size range like 1k-4k, or read,write ranges like 1k-4k,2k-8k";

  /** One {@code min-max} (or {@code min:max}) size range, fio's check_range. */
  record SizeRange(SizeValue min, SizeValue max) {}

  static SizeRange range(String raw) throws BadValue {
    int sep = raw.indexOf('-') >= 0 ? raw.indexOf('-') : raw.indexOf(':');
    if (sep < 0) {
      SizeValue v = positiveSize(raw.trim());
      return new SizeRange(v, v);
    }
    try {
      return new SizeRange(
          positiveSize(raw.substring(0, sep).trim()), positiveSize(raw.substring(sep + 1).trim()));
    } catch (BadValue e) {
      throw new BadValue(RANGE_HINT);
    }
  }

  static final String BSSPLIT_HINT =
      "size/percent pairs like 4k/10:64k/50:32k/40, or read,write lists like 4k/50:8k/50,64k/100";

  /** One {@code size/percent} of a bssplit; a null percent shares what the others leave. */
  record SplitItem(SizeValue size, Double percent) {}

  /** fio's bssplit_ddir: colon-separated {@code size/percent} items, per direction by comma. */
  static Pair<List<SplitItem>> bssplit(String raw) throws BadValue {
    return commaPair(
        raw,
        one -> {
          List<SplitItem> items = new ArrayList<>();
          double total = 0;
          for (String item : one.split(":", -1)) {
            String t = item.trim();
            if (t.isEmpty()) {
              continue;
            }
            int slash = t.indexOf('/');
            SizeValue size = positiveSize(slash < 0 ? t : t.substring(0, slash).trim());
            Double pct = null;
            if (slash >= 0 && !t.substring(slash + 1).isBlank()) {
              String p = t.substring(slash + 1).trim();
              if (!PERCENTILE.matcher(p).matches()) {
                throw new BadValue(BSSPLIT_HINT);
              }
              pct = Double.parseDouble(p);
              total += pct;
            }
            items.add(new SplitItem(size, pct));
          }
          if (items.isEmpty() || items.size() > 64 || total > 100 + 1e-9) {
            throw new BadValue(BSSPLIT_HINT + "; at most 64 sizes, percentages adding up to 100");
          }
          return items;
        },
        BSSPLIT_HINT);
  }

  /** A whole number >= min that may not fit an int. */
  static long longInteger(String raw, long min) throws BadValue {
    return wholeNumber(raw, min, Long.MAX_VALUE, "a whole number >= " + min);
  }

  static final String DISTRIBUTION_HINT =
      "random, zipf:THETA, pareto:H, normal:DEV (gauss:DEV), zoned:ACCESS/SIZE:...,"
          + " zoned_abs:ACCESS/BYTES:... or sequence:BLOCK,BLOCK,...";

  /** fio's random_distribution (str_random_distribution_cb). */
  static OffsetDistribution distribution(String raw) throws BadValue {
    int colon = raw.indexOf(':');
    String kind = colon < 0 ? raw : raw.substring(0, colon);
    String arg = colon < 0 ? "" : raw.substring(colon + 1).trim();
    try {
      switch (kind) {
        case "random":
          if (!arg.isEmpty()) {
            throw new BadValue(DISTRIBUTION_HINT);
          }
          return OffsetDistribution.UNIFORM;
        case "zipf":
          return OffsetDistribution.zipf(number(arg, 1.2));
        case "pareto":
          return OffsetDistribution.pareto(number(arg, 0.2));
        case "normal":
        case "gauss":
          return OffsetDistribution.normal(number(arg, 0));
        case "zoned":
        case "zoned_abs":
          List<OffsetDistribution.Zone> zones = new ArrayList<>();
          for (String z : arg.split(":", -1)) {
            int slash = z.indexOf('/');
            if (slash < 0) {
              throw new BadValue(DISTRIBUTION_HINT);
            }
            double access = number(z.substring(0, slash).trim(), -1);
            String size = z.substring(slash + 1).trim();
            double amount;
            if (size.isEmpty() && kind.equals("zoned")) {
              // fio: a last zone without a size is what the others leave
              double used = zones.stream().mapToDouble(x -> x.size()).sum();
              amount = 100 - used;
            } else {
              amount = kind.equals("zoned") ? number(size, -1) : positiveSize(size).bytes(1024);
            }
            zones.add(new OffsetDistribution.Zone(access, amount));
          }
          return OffsetDistribution.zoned(zones, kind.equals("zoned_abs"), raw);
        case "sequence":
          // fio's parse_sequence_distribution: block numbers, digits only, comma-separated
          String[] parts = arg.split(",", -1);
          long[] blocks = new long[parts.length];
          for (int i = 0; i < parts.length; i++) {
            String b = parts[i].strip();
            if (b.isEmpty() || !b.chars().allMatch(Character::isDigit) || b.length() > 9) {
              throw new BadValue(DISTRIBUTION_HINT);
            }
            blocks[i] = Long.parseLong(b);
          }
          return OffsetDistribution.sequence(blocks, false);
        default:
          throw new BadValue(DISTRIBUTION_HINT);
      }
    } catch (IllegalArgumentException e) {
      throw new BadValue(DISTRIBUTION_HINT + "; " + e.getMessage());
    }
  }

  private static double number(String raw, double fallback) throws BadValue {
    if (raw.isEmpty() && fallback >= 0) {
      return fallback;
    }
    if (!PERCENTILE.matcher(raw).matches()) {
      throw new BadValue(DISTRIBUTION_HINT);
    }
    return Double.parseDouble(raw);
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
    return (int) wholeNumber(raw, min, max, hint);
  }

  /** A whole number in [min, max]; {@code hint} says what was expected when it is not one. */
  static long wholeNumber(String raw, long min, long max, String hint) throws BadValue {
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
    return v;
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
      int from = (int) wholeNumber(ends[0].trim(), 0, 4095, hint);
      int to = ends.length == 2 ? (int) wholeNumber(ends[1].trim(), 0, 4095, hint) : from;
      if (to < from) {
        throw new BadValue(hint + "; a range must go upwards");
      }
      for (int c = from; c <= to; c++) {
        cpus.add(c);
      }
    }
    return new CpuList(new ArrayList<>(cpus), raw);
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
