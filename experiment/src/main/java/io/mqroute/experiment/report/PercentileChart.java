package io.mqroute.experiment.report;

import io.mqroute.experiment.Summary;
import io.mqroute.experiment.VariantResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.geom.Line2D;
import java.awt.geom.Rectangle2D;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.XYStyler;

/**
 * Latency against percentile, one line per variant, on the log {@code 1/(1-p)} axis of HdrHistogram
 * plots: every "nine" gets the same width, so the tail is as readable as the median.
 *
 * <p>The x value is {@code u = log10(1/(1-p))} on a linear axis. XChart's own log axis can only
 * label decades with numbers (1, 10, 100), and its tick-label callback switches the axis back to
 * linear ticks at round values, which never fall on 50%. So XChart's x labels are blanked (keeping
 * their space) and {@link #paint} draws the percentile ticks, labels and grid lines itself.
 */
final class PercentileChart extends XYChart {
  /** Labelled percentiles; those beyond the data's depth are left out. */
  static final double[] TICKS = {50, 90, 99, 99.9, 99.99, 99.999, 99.9999};

  /** Points per decade of {@code 1/(1-p)}: smooth enough, and small SVGs. */
  static final int STEPS_PER_DECADE = 40;

  /**
   * The axis always shows 50% to 99.99% (four decades) so that charts of different runs line up.
   */
  static final int MIN_DECADES = 4;

  static final int MAX_DECADES = 6;

  private final double decades;

  private PercentileChart(double decades, int series) {
    super(
        new XYChartBuilder()
            .width(ChartLayout.width(ChartLayout.legend(series, true)))
            .height(ChartLayout.height(series))
            .title("Latency by percentile (lat)")
            .xAxisTitle("percentile")
            .yAxisTitle("latency (us)"));
    this.decades = decades;
    XYStyler s = getStyler();
    s.setXAxisMin(0.0);
    s.setXAxisMax(decades);
    s.setYAxisMin(0.0);
    // One blank per tick keeps the room for the labels that paint() draws.
    s.setxAxisTickLabelsFormattingFunction(x -> " ");
    s.setPlotGridVerticalLinesVisible(false);
    s.setMarkerSize(0);
    ChartLayout.style(
        s, series, ChartLayout.legend(series, true)); // one line too: it names the variant
    s.setChartBackgroundColor(Color.WHITE);
  }

  /** The chart of every variant that completed at least one request. */
  static PercentileChart of(List<VariantResult> results) {
    List<String> names = new ArrayList<>();
    List<Histogram> hists = new ArrayList<>();
    for (VariantResult r : results) {
      // with replications, the curve of all their samples pooled (the table's percentiles are means
      // over them)
      Summary.histogram(r.all().stream().flatMap(m -> m.jobs().stream()).toList())
          .ifPresent(
              h -> {
                names.add(r.variant().id());
                hists.add(h);
              });
    }
    long most = hists.stream().mapToLong(Histogram::getTotalCount).max().orElse(1);
    double decades = Math.max(MIN_DECADES, Math.min(MAX_DECADES, Math.ceil(Math.log10(most))));
    PercentileChart chart = new PercentileChart(decades, names.size());
    for (int i = 0; i < names.size(); i++) {
      double[][] xy = curve(hists.get(i), decades);
      chart.addSeries(names.get(i), xy[0], xy[1]);
    }
    return chart;
  }

  /**
   * The curve of one histogram: {@code u} from 0 (p = 0, the minimum) in even steps up to the depth
   * the samples support ({@code 1/(1-p) <= count}; beyond it the curve would only repeat the
   * maximum), and the latency at each point in microseconds.
   */
  static double[][] curve(Histogram h, double decades) {
    double depth = Math.min(decades, Math.log10(Math.max(1, h.getTotalCount())));
    int n = (int) Math.floor(depth * STEPS_PER_DECADE);
    boolean tail = depth * STEPS_PER_DECADE - n > 1e-9;
    double[] x = new double[n + 1 + (tail ? 1 : 0)];
    double[] y = new double[x.length];
    for (int i = 0; i < x.length; i++) {
      double u = i <= n ? i / (double) STEPS_PER_DECADE : depth;
      x[i] = u;
      y[i] = h.getValueAtPercentile(percentile(u)) / 1e3;
    }
    return new double[][] {x, y};
  }

  /** The percentile (0..100) at {@code u = log10(1/(1-p))}. */
  static double percentile(double u) {
    return 100.0 * (1.0 - Math.pow(10, -u));
  }

  /** The axis position of a percentile. */
  static double position(double percentile) {
    return -Math.log10(1.0 - percentile / 100.0);
  }

  /** "99.9%": a percentile as users write it. */
  static String label(double percentile) {
    String s =
        String.format(Locale.ROOT, "%.4f", percentile).replaceAll("0+$", "").replaceAll("\\.$", "");
    return s + "%";
  }

  @Override
  public void paint(Graphics2D g, int width, int height) {
    super.paint(g, width, height);
    Rectangle2D area = plot.getBounds();
    if (area == null || area.getWidth() <= 0) {
      return;
    }
    g.setFont(getStyler().getAxisTickLabelsFont());
    FontMetrics fm = g.getFontMetrics();
    for (double p : TICKS) {
      double u = position(p);
      if (u > decades + 1e-9) {
        break;
      }
      double sx = getScreenXFromChart(u);
      g.setColor(getStyler().getPlotGridLinesColor());
      g.setStroke(getStyler().getPlotGridLinesStroke());
      g.draw(new Line2D.Double(sx, area.getMinY(), sx, area.getMaxY()));
      g.setColor(getStyler().getAxisTickMarksColor());
      g.setStroke(new BasicStroke(1f));
      g.draw(
          new Line2D.Double(
              sx, area.getMaxY(), sx, area.getMaxY() + getStyler().getAxisTickMarkLength()));
      String text = label(p);
      g.setColor(getStyler().getAxisTickLabelsColor());
      g.drawString(
          text,
          (float) (sx - fm.stringWidth(text) / 2.0),
          (float)
              (area.getMaxY()
                  + getStyler().getAxisTickMarkLength()
                  + getStyler().getAxisTickPadding()
                  + fm.getAscent()));
    }
  }
}
