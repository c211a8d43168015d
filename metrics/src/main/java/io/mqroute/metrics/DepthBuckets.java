package io.mqroute.metrics;

/**
 * fio's {@code IO depths} distribution ({@code io_u_mark_depth}): 7 buckets labelled 1, 2, 4, 8,
 * 16, 32 and >=64, each counting the depths from its label up to the next label minus one.
 */
final class DepthBuckets {

  static final String[] LABELS = {"1", "2", "4", "8", "16", "32", ">=64"};
  static final int SIZE = 7;

  private DepthBuckets() {}

  /** The bucket of a depth (requests in flight, including the one being issued). */
  static int index(int depth) {
    if (depth >= 64) {
      return 6;
    }
    if (depth >= 32) {
      return 5;
    }
    if (depth >= 16) {
      return 4;
    }
    if (depth >= 8) {
      return 3;
    }
    if (depth >= 4) {
      return 2;
    }
    return depth >= 2 ? 1 : 0;
  }

  /**
   * fio's {@code stat_calc_dist}: percentages of the total; a non-empty bucket below 0.1% shows as
   * 0.1%. When nothing was sampled the configured depth gets 100%, which is what a closed-loop job
   * that always refills its depth would show.
   */
  static double[] percentages(long[] counts, int configuredDepth) {
    double[] out = new double[SIZE];
    long total = 0;
    for (long c : counts) {
      total += c;
    }
    if (total == 0) {
      out[index(configuredDepth)] = 100.0;
      return out;
    }
    for (int i = 0; i < SIZE; i++) {
      double pct = (double) counts[i] / (double) total * 100.0;
      if (pct < 0.1 && counts[i] != 0) {
        pct = 0.1;
      }
      out[i] = pct;
    }
    return out;
  }
}
