package io.mqroute.metrics;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The latency percentiles a job reports: fio's {@code percentile_list} and the decimals fio prints
 * them with ({@code percentile_precision}).
 *
 * <p>As in fio the list holds 1 to 20 values in (0, 100], kept sorted ascending. The precision is
 * the largest number of decimals written in the list (fio derives it the same way), capped at 6
 * because fio's JSON keys ({@code "99.900000"}) carry six.
 *
 * @param values the percentiles, ascending
 * @param precision decimals in the text grid ({@code 99.90th} has precision 2)
 */
public record PercentileList(List<Double> values, int precision) {

  /** At most this many percentiles, like fio's {@code FIO_IO_U_LIST_MAX_LEN}. */
  public static final int MAX_VALUES = 20;

  /** fio's default list: 1,5,10,20,30,40,50,60,70,80,90,95,99,99.5,99.9,99.95,99.99. */
  public static final PercentileList FIO_DEFAULT =
      new PercentileList(
          List.of(
              1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 95.0, 99.0, 99.5,
              99.9, 99.95, 99.99),
          2);

  /** Validates and sorts. */
  public PercentileList {
    if (values == null || values.isEmpty() || values.size() > MAX_VALUES) {
      throw new IllegalArgumentException("a percentile list holds 1 to " + MAX_VALUES + " values");
    }
    List<Double> sorted = new ArrayList<>(values);
    for (Double v : sorted) {
      if (v == null || !(v > 0.0 && v <= 100.0)) {
        throw new IllegalArgumentException("percentile " + v + " is outside (0, 100]");
      }
    }
    Collections.sort(sorted);
    values = List.copyOf(sorted);
    if (precision < 0 || precision > 6) {
      throw new IllegalArgumentException("precision must be 0..6, got " + precision);
    }
  }

  /** A list whose precision is derived from the values' shortest decimal form (as if typed in). */
  public static PercentileList of(double... percentiles) {
    List<Double> list = new ArrayList<>();
    int precision = 0;
    for (double p : percentiles) {
      list.add(p);
      precision = Math.max(precision, decimalsOf(Double.toString(p)));
    }
    return new PercentileList(list, Math.min(precision, 6));
  }

  /**
   * The number of digits after the point in a typed number ({@code "99.95"} has 2; {@code "50"} has
   * 0).
   */
  static int decimalsOf(String typed) {
    String t = typed.trim();
    int exp = Math.max(t.indexOf('e'), t.indexOf('E'));
    if (exp >= 0) {
      return decimalsOf(new BigDecimal(t).toPlainString());
    }
    int dot = t.indexOf('.');
    if (dot < 0) {
      return 0;
    }
    int end = t.length();
    while (end > dot + 1 && t.charAt(end - 1) == '0') {
      end--;
    }
    return end - dot - 1;
  }

  /** fio's JSON key for the i-th percentile: {@code printf("%f")}, e.g. {@code "99.900000"}. */
  public String jsonKey(int index) {
    return FioNumbers.fixed(values.get(index), 6);
  }

  /** The number of percentiles. */
  public int size() {
    return values.size();
  }
}
