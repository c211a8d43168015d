package io.mqroute.actors.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The side-by-side table of variants, with ratios against the first variant. */
public final class ComparisonTable {
  private ComparisonTable() {}

  public static String render(List<VariantResult> results) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"variant", "IOPS", "BW MiB/s", "mean us", "p50 us", "p99 us", "p99.9 us",
        "p99.99 us", "errors", "status"});
    Summary base = null;
    for (VariantResult r : results) {
      Summary s = Summary.of(r.result().jobs());
      if (base == null) {
        base = s;
      }
      rows.add(new String[] {
        r.variant().name(),
        withRatio(s.iops(), base.iops(), "%.0f"),
        withRatio(s.bwBytes() / (1 << 20), base.bwBytes() / (1 << 20), "%.1f"),
        withRatio(s.meanNs() / 1e3, base.meanNs() / 1e3, "%.1f"),
        withRatio(s.p50Ns() / 1e3, base.p50Ns() / 1e3, "%.1f"),
        withRatio(s.p99Ns() / 1e3, base.p99Ns() / 1e3, "%.1f"),
        withRatio(s.p999Ns() / 1e3, base.p999Ns() / 1e3, "%.1f"),
        withRatio(s.p9999Ns() / 1e3, base.p9999Ns() / 1e3, "%.1f"),
        String.valueOf(s.errors()),
        r.result().stall() != null ? "STALL" : r.result().violations().isEmpty() ? "ok" : "VIOLATION"
      });
    }
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
        String cell = i == 0 ? pad(row[i], w[i], true) : pad(row[i], w[i], false);
        sb.append(i == 0 ? "" : "  ").append(cell);
      }
      sb.append('\n');
      if (r == 0) {
        int total = 0;
        for (int x : w) {
          total += x + 2;
        }
        sb.append("-".repeat(total - 2)).append('\n');
      }
    }
    return sb.toString();
  }

  private static String withRatio(double v, double base, String fmt) {
    String s = String.format(Locale.ROOT, fmt, v);
    if (base > 0 && v != base) {
      s += String.format(Locale.ROOT, " (%.2fx)", v / base);
    }
    return s;
  }

  private static String pad(String s, int w, boolean left) {
    String p = " ".repeat(Math.max(0, w - s.length()));
    return left ? s + p : p + s;
  }
}
