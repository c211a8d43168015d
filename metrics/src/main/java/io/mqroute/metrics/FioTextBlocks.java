package io.mqroute.metrics;

import static io.mqroute.metrics.FioNumbers.fixed;
import static io.mqroute.metrics.FioNumbers.padLeft;

/**
 * The building blocks of fio's per-job text ({@code stat.c}): latency summary lines, the percentile
 * grid and the latency bucket lines, each reproducing fio's unit choice and column widths.
 */
final class FioTextBlocks {

  /** The units latencies are shown in, by how many times they are scaled down by 1000. */
  private static final String[] UNITS = {"nsec", "usec", "msec"};

  private static final long[] DIVISORS = {1, 1000, 1_000_000};

  private FioTextBlocks() {}

  /**
   * fio's {@code display_lat}: {@code " clat (usec): min=8, max=1562, avg=43.29, stdev=82.07"}. The
   * unit steps up from nsec to usec when min > 2000, max > 99999 and stdev > 1000 (ns), and to msec
   * when min > 2e6, max > 99999999 and stdev > 1e6 (fio's {@code nsec_to_usec/msec}); so a series
   * with no spread stays in nsec, as in fio.
   */
  static void displayLat(StringBuilder out, String name, LatencyStat stat) {
    long min = stat.min();
    long max = stat.max();
    double dev = stat.stddev();
    int scale =
        min > 2_000_000 && max > 99_999_999L && dev > 1_000_000.0
            ? 2
            : min > 2000 && max > 99_999 && dev > 1000.0 ? 1 : 0;
    long divisor = DIVISORS[scale];
    out.append("    ")
        .append(name)
        .append(" (")
        .append(UNITS[scale])
        .append("): min=")
        .append(FioNumbers.num2str(min / divisor, 6, 1, false, FioNumbers.Unit.NONE))
        .append(", max=")
        .append(FioNumbers.num2str(max / divisor, 6, 1, false, FioNumbers.Unit.NONE))
        .append(", avg=")
        .append(fixed(stat.mean() / divisor, 5, 2))
        .append(", stdev=")
        .append(fixed(dev / divisor, 5, 2))
        .append('\n');
  }

  /**
   * fio's {@code show_clat_percentiles}: a header naming the unit, then {@code " NN.NNth=[ value]"}
   * entries, as many per line as fit in 80 columns. Values are in nsec unless the smallest shown
   * value exceeds 2000 ns and the largest 99999 ns (then usec, rounded up), or 2e6 / 99999999 ns
   * (then msec).
   */
  static void percentileGrid(
      StringBuilder out, String name, LatencyStat stat, PercentileList list) {
    int len = list.size();
    long[] values = new long[len];
    long minv = Long.MAX_VALUE;
    long maxv = 0;
    for (int j = 0; j < len; j++) {
      values[j] = stat.valueAtPercentile(list.values().get(j));
      minv = Math.min(minv, values[j]);
      maxv = Math.max(maxv, values[j]);
    }
    int scaleDown =
        minv > 2_000_000 && maxv > 99_999_999L ? 2 : minv > 2000 && maxv > 99_999 ? 1 : 0;
    long divisor = DIVISORS[scaleDown];
    String unit = UNITS[scaleDown];
    out.append("    ").append(name).append(" percentiles (").append(unit).append("):\n     |");
    int precision = list.precision();
    long scaledMax = maxv / divisor;
    int timeWidth = scaledMax == 0 ? 5 : Math.max(5, (int) (Math.log10(scaledMax) + 1));
    int perLine = (80 - 7) / (precision + 10 + timeWidth);
    for (int j = 0; j < len; j++) {
      if (j != 0 && j % perLine == 0) {
        out.append("     |");
      }
      boolean last = j == len - 1;
      long v = values[j];
      for (int i = 0; i < scaleDown; i++) {
        v = (v + 999) / 1000;
      }
      out.append(' ')
          .append(fixed(list.values().get(j), precision + 3, precision))
          .append("th=[")
          .append(padLeft(v, timeWidth))
          .append(']')
          .append(last ? '\n' : ',');
      if (last) {
        break;
      }
      if (j % perLine == perLine - 1) {
        out.append('\n');
      }
    }
  }

  /**
   * fio's {@code show_latencies}: {@code " lat (usec) : 2=0.28%, 4=41.00%, ..."}, five buckets per
   * line, empty buckets skipped, one block per unit that has anything.
   */
  static void latencyBuckets(StringBuilder out, long[] counts, long total) {
    showLat(
        out, LatencyBuckets.percentages(counts, 0, 10, total), LatencyBuckets.NS_US_LABELS, "nsec");
    showLat(
        out,
        LatencyBuckets.percentages(counts, LatencyBuckets.US_OFFSET, 10, total),
        LatencyBuckets.NS_US_LABELS,
        "usec");
    showLat(
        out,
        LatencyBuckets.percentages(counts, LatencyBuckets.MS_OFFSET, 12, total),
        LatencyBuckets.MS_LABELS,
        "msec");
  }

  private static void showLat(StringBuilder out, double[] pct, String[] labels, String unit) {
    boolean newLine = true;
    boolean shown = false;
    int line = 0;
    for (int i = 0; i < pct.length; i++) {
      if (pct[i] <= 0.0) {
        continue;
      }
      shown = true;
      if (newLine) {
        if (line != 0) {
          out.append('\n');
        }
        out.append("  lat (").append(unit).append(")   : ");
        newLine = false;
        line = 0;
      }
      if (line != 0) {
        out.append(", ");
      }
      out.append(labels[i]).append('=').append(fixed(pct[i], 3, 2)).append('%');
      line++;
      if (line == 5) {
        newLine = true;
      }
    }
    if (shown) {
      out.append('\n');
    }
  }

  /** fio's {@code IO depths} line: {@code " IO depths : 1=100.0%, 2=0.0%, ..., >=64=0.0%"}. */
  static void ioDepths(StringBuilder out, double[] pct) {
    out.append("  IO depths    :");
    for (int i = 0; i < pct.length; i++) {
      out.append(i == 0 ? " " : ", ")
          .append(DepthBuckets.LABELS[i])
          .append('=')
          .append(fixed(pct[i], 3, 1))
          .append('%');
    }
    out.append('\n');
  }
}
