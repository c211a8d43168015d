package io.mqroute.experiment.report;

import io.mqroute.experiment.Summary;
import io.mqroute.experiment.VariantResult;
import java.awt.Color;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.XYStyler;

/**
 * A numeric parameter that takes several values across the variants, and the lines to plot against
 * it: one line per combination of the other parameters, its points in increasing order of the swept
 * value.
 *
 * <p>Where a variant's parameters come from is the caller's choice ({@link #detect}'s {@code
 * pointOf}): today the variant's overrides ({@link #PARAMS}); an experiment format with sweeps can
 * pass each variant's sweep point instead, and a two-key sweep then gives two plots, each with one
 * line per value of the other key.
 *
 * @param key the swept parameter, e.g. {@code queues.ring-size}
 * @param lines series name (the other parameters, {@code "a=1, b=2"}, or {@code "all"}) to its
 *     points
 */
public record Sweep(String key, Map<String, List<Point>> lines) {
  /** One variant on a line. */
  public record Point(double x, VariantResult result) {}

  /** A coordinate that names the variant: it tells lines apart and is never itself swept. */
  public static final String VARIANT = "variant";

  /**
   * The parameters of a variant as its overrides ({@link io.mqroute.experiment.Variant#params()}).
   */
  public static final Function<VariantResult, Map<String, String>> PARAMS =
      r -> r.variant().params();

  /**
   * The sweeps in {@code results}: every key that each variant has, with a finite number as value
   * in every variant, and at least one line of two or more distinct values. Keys in first-variant
   * order.
   */
  public static List<Sweep> detect(
      List<VariantResult> results, Function<VariantResult, Map<String, String>> pointOf) {
    if (results.size() < 2) {
      return List.of();
    }
    Set<String> keys = new LinkedHashSet<>(pointOf.apply(results.get(0)).keySet());
    for (VariantResult r : results) {
      keys.retainAll(pointOf.apply(r).keySet());
    }
    List<Sweep> sweeps = new ArrayList<>();
    keys.remove(VARIANT);
    for (String key : keys) {
      Map<String, List<Point>> lines = new LinkedHashMap<>();
      boolean numeric = true;
      for (VariantResult r : results) {
        Map<String, String> point = pointOf.apply(r);
        Double x = number(point.get(key));
        if (x == null) {
          numeric = false;
          break;
        }
        lines.computeIfAbsent(lineName(point, key), k -> new ArrayList<>()).add(new Point(x, r));
      }
      if (!numeric) {
        continue;
      }
      lines.values().forEach(l -> l.sort(Comparator.comparingDouble(Point::x)));
      boolean varies =
          lines.values().stream()
              .anyMatch(l -> l.stream().mapToDouble(Point::x).distinct().count() >= 2);
      if (varies) {
        sweeps.add(new Sweep(key, lines));
      }
    }
    return sweeps;
  }

  /** Total IOPS against the swept value. */
  public XYChart iopsChart() {
    return chart("IOPS by " + key, "IOPS", "#,##0", Summary::iops);
  }

  /** p99.9 of total latency ({@code lat}, microseconds) against the swept value. */
  public XYChart p999Chart() {
    return chart(
        "p99.9 latency by " + key + " (lat)", "latency (us)", "#,##0.0", s -> s.p999Ns() / 1e3);
  }

  /**
   * The file-name stem for this sweep's plots: {@code sweep-<key>}, with unsafe characters
   * replaced.
   */
  public String fileStem() {
    return "sweep-" + key.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  private XYChart chart(
      String title, String yTitle, String yPattern, ToDoubleFunction<Summary> metric) {
    boolean legend = ChartLayout.legend(lines.size(), false);
    XYChart chart =
        new XYChartBuilder()
            .width(ChartLayout.width(legend))
            .height(ChartLayout.height(lines.size()))
            .title(title)
            .xAxisTitle(key)
            .yAxisTitle(yTitle)
            .build();
    XYStyler s = chart.getStyler();
    s.setYAxisMin(0.0);
    s.setYAxisDecimalPattern(yPattern);
    s.setChartBackgroundColor(Color.WHITE);
    ChartLayout.style(s, lines.size(), legend);
    double min =
        lines.values().stream().flatMap(List::stream).mapToDouble(Point::x).min().orElse(0);
    double max =
        lines.values().stream().flatMap(List::stream).mapToDouble(Point::x).max().orElse(0);
    // Sizes are usually swept in powers of two: over two decades or more they read better on a log
    // axis.
    s.setXAxisLogarithmic(min > 0 && max / min >= 100);
    boolean integral =
        lines.values().stream().flatMap(List::stream).allMatch(p -> p.x() == Math.rint(p.x()));
    if (integral && !s.isXAxisLogarithmic()) {
      // iodepth 1.5 does not exist: label whole values only
      s.setxAxisTickLabelsFormattingFunction(
          x -> x == Math.rint(x) ? String.format(Locale.ROOT, "%,d", x.longValue()) : "");
    }
    List<VariantResult> all =
        lines.values().stream().flatMap(List::stream).map(Point::result).toList();
    boolean replicated = ChartLayout.replicated(all);
    if (replicated) {
      chart.setTitle(title + ChartLayout.CI_NOTE);
      s.setErrorBarsColorSeriesColor(true);
    }
    for (Map.Entry<String, List<Point>> line : lines.entrySet()) {
      double[] x = line.getValue().stream().mapToDouble(Point::x).toArray();
      double[] y =
          line.getValue().stream()
              .mapToDouble(p -> metric.applyAsDouble(p.result().summary()))
              .toArray();
      if (replicated) {
        double[] ci95 =
            line.getValue().stream()
                .mapToDouble(p -> ChartLayout.ci95(p.result(), metric))
                .toArray();
        chart.addSeries(line.getKey(), x, y, ci95);
      } else {
        chart.addSeries(line.getKey(), x, y);
      }
    }
    return chart;
  }

  private static String lineName(Map<String, String> point, String key) {
    String name =
        point.entrySet().stream()
            .filter(e -> !e.getKey().equals(key))
            .map(e -> e.getKey().equals(VARIANT) ? e.getValue() : e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining(", "));
    return name.isEmpty() ? "all" : name;
  }

  private static Double number(String s) {
    if (s == null) {
      return null;
    }
    try {
      double v = Double.parseDouble(s.strip());
      return Double.isFinite(v) ? v : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
