package io.mqroute.actors.machine;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The byte offsets of one job clone's requests in one direction, like fio's: sequential jobs walk
 * the region block by block and wrap to its start; random jobs pick a block uniformly (with
 * replacement, like fio's {@code norandommap}; fio's default random map is not modelled).
 *
 * <p>Deterministic: the random variant draws only from the {@link RandomGenerator} the caller
 * passes (one {@code nextLong(bound)} per offset), so the caller owns the seed and the stream. A
 * partial last block is never used. {@link #next()} does not allocate. Not thread-safe.
 */
public final class OffsetGenerator {

  private final long start;
  private final long blockSize;
  private final long blocks;
  private final RandomGenerator random;
  private long nextBlock;

  private OffsetGenerator(long start, long regionBytes, long blockSize, RandomGenerator random) {
    if (start < 0 || blockSize <= 0 || regionBytes < blockSize) {
      throw new IllegalArgumentException(
          "need start >= 0, blockSize > 0 and a region of at least one block;"
              + " got start="
              + start
              + ", region="
              + regionBytes
              + ", blockSize="
              + blockSize);
    }
    this.start = start;
    this.blockSize = blockSize;
    this.blocks = regionBytes / blockSize;
    this.random = random;
  }

  /**
   * Offsets {@code start, start+bs, ...} up to the last whole block of the region, then again from
   * start.
   */
  public static OffsetGenerator sequential(long start, long regionBytes, long blockSize) {
    return new OffsetGenerator(start, regionBytes, blockSize, null);
  }

  /** Uniform block-aligned offsets within the region, drawn from {@code random}. */
  public static OffsetGenerator random(
      long start, long regionBytes, long blockSize, RandomGenerator random) {
    return new OffsetGenerator(
        start, regionBytes, blockSize, Objects.requireNonNull(random, "random"));
  }

  /** The next offset in bytes. */
  public long next() {
    if (random != null) {
      return start + random.nextLong(blocks) * blockSize;
    }
    long offset = start + nextBlock * blockSize;
    nextBlock = nextBlock + 1 == blocks ? 0 : nextBlock + 1;
    return offset;
  }

  /** Whole blocks in the region. */
  public long blocks() {
    return blocks;
  }

  /** The block size in bytes. */
  public long blockSize() {
    return blockSize;
  }
}
