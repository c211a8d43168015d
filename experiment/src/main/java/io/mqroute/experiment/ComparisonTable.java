package io.mqroute.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;

/**
 * The side-by-side table: one row per variant and sweep point, ratios against the first variant at
 * the same point, and ± the 95% confidence half-width when there are replications.
 */
public final class ComparisonTable {
  /** A numeric column: its header, its {@link Summary} number, the unit that divides it, format. */
  public record Column(
      String header, ToDoubleFunction<Summary> metric, double scale, String format) {
    /** The cell of a single summary. */
    public String cell(Summary s) {
      return format(metric.applyAsDouble(s));
    }

    /** {@code v} in this column's unit and format. */
    String format(double v) {
      return String.format(Locale.ROOT, format, v / scale);
    }
  }

  /** The numbers of a row, between its name and its errors ({@code mqroute load}'s table too). */
  public static final List<Column> COLUMNS =
      List.of(
          new Column("IOPS", Summary::iops, 1, "%.0f"),
          new Column("BW MiB/s", Summary::bwBytes, 1 << 20, "%.1f"),
          new Column("mean us", Summary::meanNs, 1e3, "%.1f"),
          new Column("p50 us", s -> s.p50Ns(), 1e3, "%.1f"),
          new Column("p99 us", s -> s.p99Ns(), 1e3, "%.1f"),
          new Column("p99.9 us", s -> s.p999Ns(), 1e3, "%.1f"),
          new Column("p99.99 us", s -> s.p9999Ns(), 1e3, "%.1f"));

  private ComparisonTable() {}

  public static String render(List<VariantResult> results) {
    Map<Map<String, String>, List<VariantResult>> byPoint = new LinkedHashMap<>();
    for (VariantResult r : results) {
      byPoint.computeIfAbsent(r.variant().point(), k -> new ArrayList<>()).add(r);
    }
    List<String[]> rows = new ArrayList<>();
    rows.add(row("variant", Column::header, "errors", "status"));
    for (List<VariantResult> group : byPoint.values()) {
      VariantResult base = group.get(0);
      for (VariantResult r : group) {
        rows.add(
            row(
                r.variant().id(),
                c -> cell(r, base, c),
                String.format(Locale.ROOT, "%.0f", r.aggregate(s -> s.errors()).mean()),
                r.stalled() && r.variant().expectStall() ? "STALL (expected)" : r.status()));
      }
    }
    return layout(rows, true);
  }

  /** A table row: {@code first}, {@code cell} of each of {@link #COLUMNS}, then {@code last}. */
  public static String[] row(String first, Function<Column, String> cell, String... last) {
    return Stream.of(Stream.of(first), COLUMNS.stream().map(cell), Stream.of(last))
        .flatMap(x -> x)
        .toArray(String[]::new);
  }

  private static String cell(VariantResult r, VariantResult base, Column c) {
    ToDoubleFunction<Summary> f = c.metric();
    Aggregate a = r.aggregate(f);
    String s = c.format(a.mean());
    if (!Double.isNaN(a.ci95())) {
      s += " ±" + c.format(a.ci95());
    }
    double b = base.aggregate(f).mean();
    if (r != base && b > 0) {
      s += String.format(Locale.ROOT, " (%.2fx)", a.mean() / b);
    }
    return s;
  }

  /**
   * {@code rows} as columns, the first left-aligned and the others right-aligned, two spaces apart;
   * with {@code rule}, a line of dashes under the first row (the header).
   */
  public static String layout(List<String[]> rows, boolean rule) {
    int[] w = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        w[i] = Math.max(w[i], row[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int r = 0; r < rows.size(); r++) {
      String[] row = rows.get(r);
      for (int i = 0; i < row.length; i++) {
        String pad = " ".repeat(w[i] - row[i].length());
        sb.append(i == 0 ? "" : "  ").append(i == 0 ? row[i] + pad : pad + row[i]);
      }
      sb.append('\n');
      if (r == 0 && rule) {
        int total = -2;
        for (int x : w) {
          total += x + 2;
        }
        sb.append("-".repeat(total)).append('\n');
      }
    }
    return sb.toString();
  }
}
