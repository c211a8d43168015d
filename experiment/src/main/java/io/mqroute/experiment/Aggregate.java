package io.mqroute.experiment;

import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * A metric over independent replications: the mean and the half-width of its 95% confidence
 * interval (Student's t), or NaN for the half-width with a single replication.
 */
public record Aggregate(double mean, double ci95) {
  /** Two-sided 97.5% quantiles of Student's t for 1..30 degrees of freedom. */
  private static final double[] T975 = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
        2.145, 2.131,
    2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042
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
    return new Aggregate(mean, t975(n - 1) * sd / Math.sqrt(n));
  }

  /** Degrees of freedom beyond the table and their quantiles; the last is the normal's (df = ∞). */
  private static final int[] LARGE_DF = {30, 40, 60, 120, Integer.MAX_VALUE};

  private static final double[] LARGE_T975 = {2.042, 2.021, 2.000, 1.980, 1.960};

  /**
   * The 97.5% quantile of Student's t with {@code df} degrees of freedom: exact (3 decimals) up to
   * 30; beyond, interpolated linearly in 1/df between the tabulated 30, 40, 60, 120 and ∞, which is
   * within 0.001 of the true value (the quantile is very nearly linear in 1/df there).
   */
  static double t975(int df) {
    if (df < 1) {
      throw new IllegalArgumentException("degrees of freedom must be >= 1, was " + df);
    }
    if (df <= T975.length) {
      return T975[df - 1];
    }
    for (int i = 1; i < LARGE_DF.length; i++) {
      if (df <= LARGE_DF[i]) {
        double x0 = 1.0 / LARGE_DF[i - 1];
        double x1 = LARGE_DF[i] == Integer.MAX_VALUE ? 0 : 1.0 / LARGE_DF[i];
        double w = (1.0 / df - x1) / (x0 - x1);
        return LARGE_T975[i] + w * (LARGE_T975[i - 1] - LARGE_T975[i]);
      }
    }
    return LARGE_T975[LARGE_T975.length - 1];
  }
}
