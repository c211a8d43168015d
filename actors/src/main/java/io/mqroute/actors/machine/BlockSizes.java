package io.mqroute.actors.machine;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The block size of each I/O in one direction, like fio's {@code get_next_buflen} (io_u.c): one
 * size ({@code bs=}), a weighted split ({@code bssplit=}: an I/O draws a size with its weight) or a
 * range ({@code bsrange=}: uniform in [min, max], rounded down to a multiple of min as fio does
 * unless {@code bs_unaligned}).
 *
 * <p>A fixed size draws no random number, so jobs with one {@code bs} see the same random stream as
 * before these existed. Immutable.
 */
public final class BlockSizes {
  private final int[] sizes;
  private final double[] cumulative;
  private final int min;
  private final int max;
  private final boolean range;

  private BlockSizes(int[] sizes, double[] cumulative, int min, int max, boolean range) {
    this.sizes = sizes;
    this.cumulative = cumulative;
    this.min = min;
    this.max = max;
    this.range = range;
  }

  /** Every I/O is {@code bs} bytes. */
  public static BlockSizes fixed(int bs) {
    if (bs < 1) {
      throw new IllegalArgumentException("bs must be >= 1 byte");
    }
    return new BlockSizes(new int[] {bs}, new double[] {1}, bs, bs, false);
  }

  /**
   * fio's {@code bssplit}: {@code sizes[i]} with weight {@code weights[i]} (percentages; any sum
   * above 0, normalised here).
   */
  public static BlockSizes split(int[] sizes, double[] weights) {
    if (sizes.length == 0 || sizes.length != weights.length) {
      throw new IllegalArgumentException("bssplit needs one weight per size");
    }
    double total = 0;
    for (int i = 0; i < sizes.length; i++) {
      if (sizes[i] < 1 || !(weights[i] >= 0)) {
        throw new IllegalArgumentException("bssplit sizes must be >= 1 and weights >= 0");
      }
      total += weights[i];
    }
    if (!(total > 0)) {
      throw new IllegalArgumentException("bssplit weights must add up to more than 0");
    }
    double[] cum = new double[sizes.length];
    double run = 0;
    for (int i = 0; i < sizes.length; i++) {
      run += weights[i] / total;
      cum[i] = run;
    }
    cum[sizes.length - 1] = 1.0;
    int lo = Arrays.stream(sizes).min().getAsInt();
    int hi = Arrays.stream(sizes).max().getAsInt();
    return sizes.length == 1 ? fixed(sizes[0]) : new BlockSizes(sizes.clone(), cum, lo, hi, false);
  }

  /** fio's {@code bsrange=min-max}. */
  public static BlockSizes range(int min, int max) {
    if (min < 1 || max < min) {
      throw new IllegalArgumentException("bsrange needs 1 <= min <= max");
    }
    return min == max ? fixed(min) : new BlockSizes(new int[0], new double[0], min, max, true);
  }

  /** The size of the next I/O. */
  public int next(RandomGenerator random) {
    if (min == max) {
      return min;
    }
    if (range) {
      int len = min + random.nextInt(max - min + 1);
      return len - len % min; // fio: a multiple of the smallest size (bs_unaligned off)
    }
    double u = random.nextDouble();
    for (int i = 0; i < cumulative.length; i++) {
      if (u < cumulative[i]) {
        return sizes[i];
      }
    }
    return sizes[sizes.length - 1];
  }

  /** The smallest size: fio aligns random offsets to it ({@code blockalign} defaults to it). */
  public int min() {
    return min;
  }

  /** The largest size. */
  public int max() {
    return max;
  }

  /** One size only. */
  public boolean isFixed() {
    return min == max;
  }
}
