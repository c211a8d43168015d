package io.mqroute.policies.random;

/**
 * A source of random numbers for one purpose ("arrivals", "service", "routing", "chaos", ...).
 * Policies take this interface rather than a concrete generator so that tests can script the exact
 * draws the kernel pseudo-code would make.
 *
 * <p>Draw methods must not allocate; only {@link #split(String)} creates an object.
 */
public interface RandomSource {

  /** Uniform in {@code [0, bound)}; the kernel's {@code get_random_u32_below(bound)}. */
  int nextInt(int bound);

  /** Uniform over all 2<sup>64</sup> values. */
  long nextLong();

  /** Uniform in {@code [0, 1)} with 53 random bits. */
  double nextDouble();

  /**
   * Exponentially distributed with the given mean, by inversion: {@code -mean * log(1 - u)} with
   * {@code u = nextDouble()} and {@link StrictMath#log1p} (bit-identical in every JVM, unlike
   * {@code Math.log}, which may be an intrinsic).
   */
  default double nextExponential(double mean) {
    return -mean * StrictMath.log1p(-nextDouble());
  }

  /**
   * An independent stream named {@code name}, derived only from this source's identity and the name
   * — not from how many numbers this source has drawn — so adding a draw in one place never shifts
   * another stream.
   */
  RandomSource split(String name);
}
