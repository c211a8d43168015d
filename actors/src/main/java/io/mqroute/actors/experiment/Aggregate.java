package io.mqroute.actors.experiment;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A metric over independent replications: the mean and the half-width of its 95% confidence interval
 * (Student's t), or NaN for the half-width with a single replication.
 */
public record Aggregate(double mean, double ci95) {
  /** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
  private static final double[] T975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042
  };

  public static <T> Aggregate of(List<T> samples, ToDoubleFunction<T> f) {
    int n = samples.size();
    double sum = 0;
    for (T s : samples) {
      sum += f.applyAsDouble(s);
    }
    double mean = sum / n;
    if (n < 2) {
      return new Aggregate(mean, Double.NaN);
    }
    double ss = 0;
    for (T s : samples) {
      double d = f.applyAsDouble(s) - mean;
      ss += d * d;
    }
    double sd = Math.sqrt(ss / (n - 1));
    double t = n - 1 <= T975.length ? T975[n - 2] : 1.96;
    return new Aggregate(mean, t * sd / Math.sqrt(n));
  }
}
