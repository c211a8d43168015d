package io.mqroute.metrics;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * fio's number formatting, reproduced so that mqroute's text output reads exactly like fio 3.33's.
 *
 * <p>{@link #num2str} is fio's {@code lib/num2str.c}: it shortens a number to at most {@code
 * maxlen} digits by dividing by 1000 (SI: k, M, G, ...) or 1024 (IEC: Ki, Mi, Gi, ...), and keeps
 * as many decimals as still fit. It has fio's quirks: the decimals come from the last remainder
 * only, and a rounding carry can produce one digit more than {@code maxlen} ({@code 10239} bytes
 * prints as {@code 10.00KiB}).
 *
 * <p>{@link #fixed} replaces C's {@code printf("%.Nf")}. Java's {@code String.format} rounds the
 * shortest decimal representation half-up; glibc rounds the exact binary value half-to-even ({@code
 * 0.125} prints as {@code 0.12}). Matching fio byte for byte needs the C behaviour.
 */
public final class FioNumbers {

  /** The unit appended by {@link #num2str}; fio's {@code enum n2s_unit}. */
  public enum Unit {
    NONE(""),
    PER_SEC("/s"),
    BYTE("B"),
    BIT("bit"),
    BYTE_PER_SEC("B/s"),
    BIT_PER_SEC("bit/s");

    private final String suffix;

    Unit(String suffix) {
      this.suffix = suffix;
    }

    /** The text fio appends after the prefix, for example {@code "B/s"}. */
    public String suffix() {
      return suffix;
    }
  }

  private static final String[] SI_PREFIX = {"", "k", "M", "G", "T", "P", "E"};
  private static final String[] IEC_PREFIX = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};

  /**
   * fio's default {@code significant_figures}: the {@code maxlen} used for IOPS, bandwidth and
   * sizes.
   */
  public static final int SIG_FIGS = 4;

  private FioNumbers() {}

  /**
   * fio's {@code num2str(num, maxlen, base, pow2, units)}.
   *
   * @param num a non-negative quantity (fio's argument is unsigned)
   * @param maxlen the number of digits to aim for (fio's {@code sig_figs}, 4 by default; 6 for
   *     latencies)
   * @param base the multiplier already applied to {@code num} (1 for plain bytes)
   * @param pow2 true for IEC prefixes and 1024 steps, false for SI prefixes and 1000 steps
   * @param unit the unit suffix
   * @return the formatted text, for example {@code "30.5k"}, {@code "119MiB/s"} or {@code
   *     "6883.3k"}
   */
  public static String num2str(long num, int maxlen, int base, boolean pow2, Unit unit) {
    if (num < 0) {
      throw new IllegalArgumentException("num2str takes a non-negative number, got " + num);
    }
    String[] prefixes = pow2 ? IEC_PREFIX : SI_PREFIX;
    int thousand = pow2 ? 1024 : 1000;
    int postIndex = 0;
    for (int b = base; b > 1; postIndex++) {
      b /= thousand;
    }
    if (unit == Unit.BIT || unit == Unit.BIT_PER_SEC) {
      num *= 8;
    }
    long modulo = -1;
    boolean carry = false;
    while (postIndex < prefixes.length) {
      if (digits(num) <= maxlen) {
        break;
      }
      modulo = num % thousand;
      num /= thousand;
      carry = modulo >= thousand / 2;
      postIndex++;
    }
    if (postIndex >= prefixes.length) {
      postIndex = 0;
    }
    if (modulo == -1) {
      return num + prefixes[postIndex] + unit.suffix();
    }
    int room = maxlen - digits(num);
    if (room <= 1) {
      if (carry) {
        num++;
      }
      return num + prefixes[postIndex] + unit.suffix();
    }
    String fraction = fixed((double) modulo / (double) thousand, room - 1);
    if (fraction.charAt(0) == '1') {
      num++;
    }
    return num + "." + fraction.substring(2) + prefixes[postIndex] + unit.suffix();
  }

  /**
   * {@code num2str(num, 4, 1, pow2, unit)}: the common call with fio's default significant figures.
   */
  public static String num2str(long num, boolean pow2, Unit unit) {
    return num2str(num, SIG_FIGS, 1, pow2, unit);
  }

  /**
   * C's {@code printf("%.<decimals>f", value)}: the exact binary value rounded half-to-even.
   *
   * @param value a finite number
   * @param decimals digits after the point, 0 or more
   */
  public static String fixed(double value, int decimals) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      return Double.isNaN(value) ? "nan" : (value > 0 ? "inf" : "-inf");
    }
    String text = new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    // C prints the sign of a negative number that rounds to zero; BigDecimal drops it.
    if (value < 0 && !text.startsWith("-")) {
      text = "-" + text;
    }
    return text;
  }

  /** C's {@code printf("%<width>.<decimals>f", value)}: {@link #fixed} left-padded with spaces. */
  public static String fixed(double value, int width, int decimals) {
    return padLeft(fixed(value, decimals), width);
  }

  /** C's {@code %<width>s} and {@code %<width>llu}: left-pads with spaces, never truncates. */
  public static String padLeft(String text, int width) {
    if (text.length() >= width) {
      return text;
    }
    StringBuilder sb = new StringBuilder(width);
    for (int i = text.length(); i < width; i++) {
      sb.append(' ');
    }
    return sb.append(text).toString();
  }

  /** C's {@code %<width>llu}. */
  public static String padLeft(long value, int width) {
    return padLeft(Long.toString(value), width);
  }

  private static int digits(long value) {
    return Long.toString(value).length();
  }
}
