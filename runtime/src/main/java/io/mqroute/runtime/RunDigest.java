package io.mqroute.runtime;

/**
 * An order-sensitive 64-bit digest of a sequence of {@code long} values, to show that two runs
 * produced the same results in the same order (same seed, same digest, in every JVM). Not
 * cryptographic; each step is a multiply-xorshift mix, so a changed, missing or reordered value
 * changes the digest with overwhelming probability. Not thread-safe.
 */
public final class RunDigest {
  private static final long SEED = 0x6A09E667F3BCC909L;

  private long state = SEED;
  private long count;

  /** Adds one value. */
  public RunDigest add(long value) {
    state = mix(state ^ mix(value + count));
    count++;
    return this;
  }

  /** Adds two values, e.g. (request id, latency). */
  public RunDigest add(long first, long second) {
    return add(first).add(second);
  }

  /** Number of values added. */
  public long count() {
    return count;
  }

  /** The digest of everything added so far. */
  public long value() {
    return mix(state ^ count);
  }

  /** {@link #value()} as 16 hex digits. */
  public String hex() {
    return String.format("%016x", value());
  }

  @Override
  public String toString() {
    return hex();
  }

  // The finaliser of SplitMix64 (Steele, Lea, Flood 2014): a bijection with full avalanche.
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
