package io.mqroute.policies.topology;

/**
 * A read-only set of small non-negative indices (queue ids or CPU ids), stored as 64-bit words so
 * that a policy can popcount it and take its n-th member without allocating — the Java shape of a
 * kernel {@code cpumask}.
 *
 * <p>Cost: the defaults of {@link #weight()}, {@link #nth(int)} and {@link #nextSetBit(int)} are
 * O(capacity / 64) branch-light word operations (four words for 256 queues); {@link BitMask} caches
 * its weight and indexes its members so both are O(1).
 */
public interface QueueMask {

  /** Returned by the search methods when there is no such member. */
  int NONE = -1;

  /** Number of indices this mask can hold: members are in {@code [0, capacity())}. */
  int capacity();

  /** Bits {@code 64*index .. 64*index+63}; {@code index < wordCount()}. */
  long word(int index);

  /** Number of 64-bit words backing this mask. */
  default int wordCount() {
    return (capacity() + 63) >>> 6;
  }

  /** Whether {@code i} is a member; indices outside the capacity are never members. */
  default boolean contains(int i) {
    return i >= 0 && i < capacity() && (word(i >>> 6) & (1L << i)) != 0;
  }

  /** Number of members (the kernel's {@code cpumask_weight}). */
  default int weight() {
    int sum = 0;
    for (int w = 0, n = wordCount(); w < n; w++) {
      sum += Long.bitCount(word(w));
    }
    return sum;
  }

  /** Whether the mask has no member. */
  default boolean isEmpty() {
    return weight() == 0;
  }

  /** Lowest member, or {@link #NONE} (the kernel's {@code cpumask_first}). */
  default int first() {
    return nextSetBit(0);
  }

  /** Lowest member {@code >= from}, or {@link #NONE}. */
  default int nextSetBit(int from) {
    if (from < 0) {
      from = 0;
    }
    int n = wordCount();
    int w = from >>> 6;
    if (w >= n) {
      return NONE;
    }
    long bits = word(w) & (-1L << from);
    while (true) {
      if (bits != 0) {
        int i = (w << 6) + Long.numberOfTrailingZeros(bits);
        return i < capacity() ? i : NONE;
      }
      if (++w >= n) {
        return NONE;
      }
      bits = word(w);
    }
  }

  /**
   * The {@code n}-th member in ascending order, counting from 0 (the kernel's {@code cpumask_nth}),
   * or {@link #NONE} if {@code n} is not in {@code [0, weight())}.
   */
  default int nth(int n) {
    // No early exit: a fixed trip count and conditional adds keep the loop free of
    // mispredicted branches at random ranks (p2c's case).
    int words = wordCount();
    int seen = 0;
    int target = 0;
    int before = 0;
    for (int w = 0; w < words; w++) {
      int c = Long.bitCount(word(w));
      boolean beyond = n >= seen + c;
      target += beyond ? 1 : 0;
      before += beyond ? c : 0;
      seen += c;
    }
    if (n < 0 || n >= seen) {
      return NONE;
    }
    return (target << 6) + Select64.select(word(target), n - before);
  }
}
