package io.mqroute.actors.metrics;

/**
 * A running 64-bit fingerprint of completions in the order they happen: folding {@code (request id,
 * completion time, status)} per completion. Two runs that complete the same requests at the same
 * virtual times with the same outcomes, in the same order, end with the same value; any difference
 * in order, time or status changes it (with overwhelming likelihood).
 *
 * <p>Cheap enough for every completion: three multiply-xorshift mixing rounds, no allocation. Not a
 * cryptographic hash (see {@link Digest} for that). Not thread-safe.
 */
public final class CompletionDigest {

  /** Added after each mixing round so that zero is not a fixed point. */
  private static final long GAMMA = 0x9E3779B97F4A7C15L;

  private long state = GAMMA;
  private long count;

  /** Folds one completion into the fingerprint. */
  public void add(long requestId, long completionNs, int status) {
    long h = mix(state ^ requestId) + GAMMA;
    h = mix(h ^ completionNs) + GAMMA;
    state = mix(h ^ status) + GAMMA;
    count++;
  }

  /** The fingerprint so far. */
  public long value() {
    return state;
  }

  /** Completions folded so far. */
  public long count() {
    return count;
  }

  /** {@link #value()} as 16 hex digits. */
  public String hex() {
    String digits = Long.toHexString(state);
    return "0".repeat(16 - digits.length()) + digits;
  }

  /** A 64-bit finalizer: xor-shift, multiply by odd constants, xor-shift (all bits avalanche). */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
