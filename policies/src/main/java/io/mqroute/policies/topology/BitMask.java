package io.mqroute.policies.topology;

import java.util.Arrays;
import java.util.StringJoiner;

/**
 * A mutable fixed-capacity {@link QueueMask} with a cached weight, so that registering a queue or
 * flipping a CPU is O(1) and {@link #weight()} is a field read.
 *
 * <p>{@link #nth(int)} — drawn twice per p2c decision — reads a dense, ascending member index that
 * is rebuilt lazily (O(capacity / 64 + weight)) on the first {@code nth} after a change: masks
 * change on registration and hotplug, rarely, and are read on every decision.
 *
 * <p>Not thread-safe, not even for concurrent readers ({@code nth} may rebuild the index): owned by
 * one actor (or one test) at a time.
 */
public final class BitMask implements QueueMask {

  private final int capacity;
  private final long[] words;
  private final int[] members;
  private int weight;
  private boolean indexStale;

  /** An empty mask that can hold indices {@code [0, capacity)}. */
  public BitMask(int capacity) {
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must be >= 0, got " + capacity);
    }
    this.capacity = capacity;
    this.words = new long[(capacity + 63) >>> 6];
    this.members = new int[capacity];
  }

  /** A mask of the given capacity with the given members. */
  public static BitMask of(int capacity, int... members) {
    BitMask m = new BitMask(capacity);
    for (int i : members) {
      m.set(i);
    }
    return m;
  }

  /** A mask with every index in {@code [0, capacity)} set. */
  public static BitMask full(int capacity) {
    BitMask m = new BitMask(capacity);
    for (int i = 0; i < capacity; i++) {
      m.set(i);
    }
    return m;
  }

  @Override
  public int capacity() {
    return capacity;
  }

  @Override
  public int wordCount() {
    return words.length;
  }

  @Override
  public long word(int index) {
    return words[index];
  }

  @Override
  public int weight() {
    return weight;
  }

  @Override
  public boolean isEmpty() {
    return weight == 0;
  }

  /** Adds {@code i}; returns whether it was absent. */
  public boolean set(int i) {
    checkIndex(i);
    long bit = 1L << i;
    long old = words[i >>> 6];
    if ((old & bit) != 0) {
      return false;
    }
    words[i >>> 6] = old | bit;
    weight++;
    indexStale = true;
    return true;
  }

  /** Removes {@code i}; returns whether it was present. */
  public boolean clear(int i) {
    checkIndex(i);
    long bit = 1L << i;
    long old = words[i >>> 6];
    if ((old & bit) == 0) {
      return false;
    }
    words[i >>> 6] = old & ~bit;
    weight--;
    indexStale = true;
    return true;
  }

  /** Adds or removes {@code i}; returns whether the mask changed. */
  public boolean set(int i, boolean member) {
    return member ? set(i) : clear(i);
  }

  /** Removes every member. */
  public void clearAll() {
    Arrays.fill(words, 0L);
    weight = 0;
    indexStale = false;
  }

  @Override
  public int nth(int n) {
    if (n < 0 || n >= weight) {
      return NONE;
    }
    if (indexStale) {
      reindex();
    }
    return members[n];
  }

  @Override
  public int first() {
    return weight == 0 ? NONE : nth(0);
  }

  private void reindex() {
    int k = 0;
    for (int w = 0; w < words.length; w++) {
      for (long bits = words[w]; bits != 0; bits &= bits - 1) {
        members[k++] = (w << 6) + Long.numberOfTrailingZeros(bits);
      }
    }
    indexStale = false;
  }

  private void checkIndex(int i) {
    if (i < 0 || i >= capacity) {
      throw new IndexOutOfBoundsException("index " + i + " not in [0, " + capacity + ")");
    }
  }

  @Override
  public String toString() {
    StringJoiner j = new StringJoiner(",", "{", "}");
    for (int i = first(); i >= 0; i = nextSetBit(i + 1)) {
      j.add(Integer.toString(i));
    }
    return j.toString();
  }
}
