package io.mqroute.experiment.report;

import io.mqroute.experiment.Summary;
import io.mqroute.experiment.VariantResult;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.CategoryStyler;

/** One bar per variant, in the experiment's order: IOPS, or p99.9 latency. */
final class VariantBars {
  /** Above this many variants the names are turned so that they do not overlap. */
  static final int UPRIGHT_NAMES = 6;

  /** Width per bar once there are many: room for a turned name and a turned value label. */
  static final int BAR_WIDTH = 30;

  /** Width of a character of XChart's default axis font, to tell when level names would touch. */
  static final int NAME_CHAR_WIDTH = 8;

  /** Room for the y axis and padding. */
  static final int AXIS_WIDTH = 160;

  private VariantBars() {}

  /** Total IOPS of each variant (reads and writes, all jobs). */
  static CategoryChart iops(List<VariantResult> results) {
    return chart("IOPS per variant", "IOPS", "#,##0", results, Summary::iops);
  }

  /** p99.9 of total latency ({@code lat}) of each variant, in microseconds. */
  static CategoryChart p999(List<VariantResult> results) {
    return chart(
        "p99.9 latency per variant (lat)",
        "latency (us)",
        "#,##0.0",
        results,
        s -> s.p999Ns() / 1e3);
  }

  private static CategoryChart chart(
      String title,
      String yTitle,
      String pattern,
      List<VariantResult> results,
      ToDoubleFunction<Summary> metric) {
    int width =
        Math.min(
            ChartLayout.MAX_WIDTH,
            Math.max(ChartLayout.PLOT_WIDTH, AXIS_WIDTH + BAR_WIDTH * results.size()));
    CategoryChart chart =
        new CategoryChartBuilder()
            .width(width)
            .height(ChartLayout.PLOT_HEIGHT)
            .title(title)
            .xAxisTitle("variant")
            .yAxisTitle(yTitle)
            .build();
    CategoryStyler s = chart.getStyler();
    s.setLegendVisible(false);
    s.setLabelsVisible(true);
    s.setYAxisMin(0.0);
    s.setDecimalPattern(pattern);
    s.setChartBackgroundColor(Color.WHITE);
    int longest = results.stream().mapToInt(r -> r.variant().id().length()).max().orElse(0);
    if (results.size() > UPRIGHT_NAMES
        || results.size() * longest * NAME_CHAR_WIDTH > width - AXIS_WIDTH) {
      s.setXAxisLabelRotation(45);
      s.setLabelsRotation(
          90); // the value above each bar, turned like the names so that neighbours do not overlap
    }
    List<String> names = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    List<Double> ci95 = new ArrayList<>();
    for (VariantResult r : results) {
      names.add(r.variant().id());
      values.add(metric.applyAsDouble(r.summary()));
      ci95.add(ChartLayout.ci95(r, metric));
    }
    if (ChartLayout.replicated(results)) {
      chart.setTitle(title + ChartLayout.CI_NOTE);
      s.setErrorBarsColor(Color.BLACK);
      chart.addSeries(yTitle, names, values, ci95);
    } else {
      chart.addSeries(yTitle, names, values);
    }
    return chart;
  }
}
