package io.mqroute.experiment.report;

import io.mqroute.experiment.Summary;
import io.mqroute.experiment.VariantResult;
import java.awt.Color;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.style.Styler;

/**
 * Sizes and colours that keep a chart readable however many series it has: the legend goes beside
 * the plot (inside, it hid the points that mattered), the canvas grows with the legend, and every
 * series gets its own colour (XChart's theme repeats after a few).
 */
final class ChartLayout {
  /** The plot area's size in pixels; the legend and the names beside it come on top of this. */
  static final int PLOT_WIDTH = 900;

  static final int PLOT_HEIGHT = 540;

  /** Room for a legend of typical names beside the plot. */
  static final int LEGEND_WIDTH = 300;

  /** One legend line (font and padding of XChart's default theme). */
  static final int LEGEND_LINE = 19;

  /** Room for the title, axis titles and padding above and below the legend. */
  static final int CHROME_HEIGHT = 140;

  /** XChart's own colours while they last. */
  static final int THEME_COLOURS = 8;

  /**
   * Beyond these the canvas stops growing (a legend of several hundred lines would be unreadable
   * anyway).
   */
  static final int MAX_HEIGHT = 4000;

  static final int MAX_WIDTH = 4000;

  /**
   * Appended to the title of a chart whose points are means over replications, drawn with their
   * intervals.
   */
  static final String CI_NOTE = " (mean and 95% CI over replications)";

  private ChartLayout() {}

  /** The 95% half-width of a metric's mean over a result's replications; 0 for a single run. */
  static double ci95(VariantResult r, ToDoubleFunction<Summary> metric) {
    return r.replications() > 1 ? r.aggregate(metric).ci95() : 0;
  }

  /**
   * Whether any result is a mean over several replications (its charts then draw 95% intervals).
   */
  static boolean replicated(List<VariantResult> results) {
    return results.stream().anyMatch(r -> r.replications() > 1);
  }

  /**
   * Whether a chart of {@code series} lines shows a legend ({@code legendForOne}: also for a single
   * line).
   */
  static boolean legend(int series, boolean legendForOne) {
    return series > 1 || legendForOne && series == 1;
  }

  /** Canvas width: the plot's, and room for the legend beside it when there is one. */
  static int width(boolean legend) {
    return legend ? PLOT_WIDTH + LEGEND_WIDTH : PLOT_WIDTH;
  }

  /** Canvas height: the plot's, or the legend's when that is taller. */
  static int height(int series) {
    return Math.min(MAX_HEIGHT, Math.max(PLOT_HEIGHT, CHROME_HEIGHT + LEGEND_LINE * series));
  }

  /**
   * The legend (if any) beside the plot, and a colour per series when XChart's theme would repeat.
   */
  static void style(Styler s, int series, boolean legend) {
    s.setLegendPosition(Styler.LegendPosition.OutsideE);
    s.setLegendVisible(legend);
    if (series > THEME_COLOURS) {
      s.setSeriesColors(colours(series));
    }
  }

  /**
   * {@code n} colours that differ in hue (golden-ratio steps around the circle) and, every third
   * one, in brightness, so that neighbours in the legend do not look alike. Deterministic: same
   * bytes every run.
   */
  static Color[] colours(int n) {
    Color[] c = new Color[n];
    float[] brightness = {0.80f, 0.55f, 0.35f};
    for (int i = 0; i < n; i++) {
      float hue = (float) ((i * 0.618033988749895) % 1.0);
      c[i] = Color.getHSBColor(hue, 0.85f, brightness[i % brightness.length]);
    }
    return c;
  }
}
