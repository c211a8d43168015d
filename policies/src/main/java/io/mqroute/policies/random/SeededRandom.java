package io.mqroute.policies.random;

import java.util.SplittableRandom;

/**
 * The reproducible {@link RandomSource}: one {@link SplittableRandom} (SplitMix64, whose algorithm
 * its Javadoc specifies) per named stream, so the same seed gives the same numbers in every JVM and
 * every policy sees the same arrivals and service times (common random numbers).
 *
 * <p>Derivation, fixed forever because experiment digests depend on it:
 *
 * <ul>
 *   <li>{@code root(seed)} has identity {@code seed};
 *   <li>{@code split(name)} has identity {@code mix64(parentIdentity ^ fnv1a64(utf8(name)))}, where
 *       {@code mix64} is the SplitMix64 finaliser (Stafford variant 13);
 *   <li>a source with identity {@code id} draws from {@code new SplittableRandom(id)}.
 * </ul>
 *
 * Only {@link SplittableRandom#nextLong()} is used; the bounded, double and exponential draws are
 * defined here so that a JDK change in {@code SplittableRandom}'s derived methods cannot change
 * them: {@code nextInt(bound)} is Lemire's multiply-shift on the high 32 bits with rejection,
 * {@code nextDouble()} is {@code (nextLong() >>> 11) * 2^-53}.
 *
 * <p>Cost: one SplitMix64 step (an add and a mix, ~1 ns) per draw, no allocation. Not thread-safe:
 * one instance per actor.
 */
public final class SeededRandom implements RandomSource {

  private final long identity;
  private final SplittableRandom random;

  private SeededRandom(long identity) {
    this.identity = identity;
    this.random = new SplittableRandom(identity);
  }

  /** The root source of an experiment seed. */
  public static SeededRandom root(long seed) {
    return new SeededRandom(seed);
  }

  /** Shorthand for {@code root(seed).split(name)}. */
  public static SeededRandom stream(long seed, String name) {
    return root(seed).split(name);
  }

  /** The value this source was seeded with (see the class Javadoc). */
  public long identity() {
    return identity;
  }

  @Override
  public SeededRandom split(String name) {
    return new SeededRandom(mix64(identity ^ Fnv1a.hash64(name)));
  }

  @Override
  public int nextInt(int bound) {
    if (bound <= 0) {
      throw new IllegalArgumentException("bound must be > 0, got " + bound);
    }
    long m = (random.nextLong() >>> 32) * bound;
    long low = m & 0xffffffffL;
    if (low < bound) {
      long threshold = (0x1_0000_0000L - bound) % bound;
      while (low < threshold) {
        m = (random.nextLong() >>> 32) * bound;
        low = m & 0xffffffffL;
      }
    }
    return (int) (m >>> 32);
  }

  @Override
  public long nextLong() {
    return random.nextLong();
  }

  @Override
  public double nextDouble() {
    return (random.nextLong() >>> 11) * 0x1.0p-53;
  }

  /** The SplitMix64 finaliser (Stafford variant 13), as in {@code SplittableRandom.mix64}. */
  static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  @Override
  public String toString() {
    return "SeededRandom[identity=0x" + Long.toHexString(identity) + "]";
  }
}
