package io.mqroute.actors.machine;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The byte offsets of one job clone's requests in one direction, like fio's get_next_offset
 * (io_u.c): sequential jobs walk the region and wrap to its start (leaving {@code skip} bytes after
 * each I/O, fio's {@code rw=read:4k}); random jobs pick an aligned block from an {@link
 * OffsetDistribution} (with replacement, like fio's {@code norandommap}; fio's default random map
 * is not modelled), every {@code iosPerOffset}-th I/O, and go on sequentially in between ({@code
 * rw=randread:8}).
 *
 * <p>Deterministic: the random variant draws only from the {@link RandomGenerator} the caller
 * passes (one {@code nextLong(bound)} per offset for the uniform distribution), so the caller owns
 * the seed and the stream. An I/O never runs past the region. {@link #next()} does not allocate.
 * Not thread-safe.
 */
public final class OffsetGenerator {

  private final long start;
  private final long region;
  private final long blockSize;
  private final long blocks;
  private final long skip;
  private final int iosPerOffset;
  private final OffsetDistribution.Sampler sampler;
  private long position;
  private long sinceDraw;

  /**
   * zonemode=strided, null without: the I/O stays in the zone at {@code zoneStart} ({@code span}
   * bytes, where offsets are drawn or walked) until {@code zoneDone} reaches the stride's size.
   */
  private final IoPattern.Stride stride;

  /** The bytes offsets are drawn from or walked over: the region, or one strided zone. */
  private final long span;

  /** Past the region's end a job that goes on (time_based, loops) starts again at zone 0. */
  private final boolean wrap;

  private long zoneStart;
  private long zoneDone;

  private OffsetGenerator(
      long start,
      long regionBytes,
      long blockSize,
      long maxLength,
      long skip,
      int iosPerOffset,
      OffsetDistribution distribution,
      RandomGenerator random,
      IoPattern.Stride stride,
      boolean wrap) {
    this.stride = stride;
    this.span = stride == null ? regionBytes : Math.min(regionBytes, stride.rangeBytes());
    this.wrap = wrap;
    if (stride != null && span < Math.max(blockSize, maxLength)) {
      throw new IllegalArgumentException("zonerange must hold at least one block");
    }
    if (start < 0
        || blockSize <= 0
        || maxLength <= 0
        || regionBytes < Math.max(blockSize, maxLength)) {
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
    this.region = regionBytes;
    this.blockSize = blockSize;
    // a random I/O of the largest size must still fit: the last usable block leaves room for it
    this.blocks = (span - maxLength) / blockSize + 1;
    this.skip = skip;
    this.iosPerOffset = iosPerOffset;
    this.sampler =
        random == null
            ? null
            : distribution.sampler(blocks, blockSize, Objects.requireNonNull(random, "random"));
  }

  /**
   * Offsets {@code start, start+bs, ...} up to the last whole block of the region, then again from
   * start.
   */
  public static OffsetGenerator sequential(long start, long regionBytes, long blockSize) {
    return uniform(start, regionBytes, blockSize, null);
  }

  /** Uniform block-aligned offsets within the region, drawn from {@code random}. */
  public static OffsetGenerator random(
      long start, long regionBytes, long blockSize, RandomGenerator random) {
    return uniform(start, regionBytes, blockSize, Objects.requireNonNull(random, "random"));
  }

  /** One block size, no skip, no stride: sequential when {@code random} is null. */
  private static OffsetGenerator uniform(
      long start, long regionBytes, long blockSize, RandomGenerator random) {
    return new OffsetGenerator(
        start,
        regionBytes,
        blockSize,
        blockSize,
        0,
        1,
        OffsetDistribution.UNIFORM,
        random,
        null,
        false);
  }

  /**
   * Offsets for a job with {@code sizes} and {@code pattern}: random when {@code random} is not
   * null, aligned to the pattern's {@code align} (default: the smallest size).
   */
  public static OffsetGenerator of(
      long start, long regionBytes, BlockSizes sizes, IoPattern pattern, RandomGenerator random) {
    return of(start, regionBytes, sizes, pattern, random, false);
  }

  /**
   * @param wrap with zonemode=strided: an I/O that would run past the region's end starts again at
   *     the first zone (a job that goes on, time_based or loops); false: the offsets run out there
   *     ({@link #next(long)} returns -1), as fio's get_next_offset fails past the file's end
   */
  public static OffsetGenerator of(
      long start,
      long regionBytes,
      BlockSizes sizes,
      IoPattern pattern,
      RandomGenerator random,
      boolean wrap) {
    long align = pattern.align() > 0 ? pattern.align() : sizes.min();
    return new OffsetGenerator(
        start,
        regionBytes,
        random == null ? sizes.min() : align,
        sizes.max(),
        random == null ? pattern.sequentialSkip() : 0,
        pattern.iosPerRandomOffset(),
        pattern.distribution(),
        random,
        pattern.stride(),
        wrap);
  }

  /** The next offset in bytes, for an I/O of one block. */
  public long next() {
    return next(blockSize);
  }

  /**
   * The next offset in bytes for an I/O of {@code length} bytes; -1 when the distribution has no
   * block left ({@code random_distribution=sequence} past the region).
   */
  public long next(long length) {
    if (stride == null) {
      return inSpan(length);
    }
    // setup_strided_zone_mode: zonesize bytes done here, move on by zonerange + zoneskip
    if (zoneDone >= stride.sizeBytes()) {
      zoneDone = 0;
      zoneStart += stride.rangeBytes() + stride.skipBytes();
      if (zoneStart >= region) {
        zoneStart = 0;
      }
      position = 0;
      sinceDraw = 0;
    }
    long offset = inSpan(length);
    if (offset < 0) {
      return offset;
    }
    if (zoneStart + (offset - start) + length > region) {
      if (!wrap) {
        return -1;
      }
      zoneStart = 0;
      position = 0;
      sinceDraw = 0;
      offset = inSpan(length);
    }
    zoneDone += length;
    return zoneStart + offset;
  }

  /** The next offset inside {@code span} bytes from {@code start} (one strided zone, or all). */
  private long inSpan(long length) {
    if (sampler != null) {
      if (sinceDraw == 0 || position + length > span) {
        long b = sampler.next();
        if (b < 0) {
          return -1;
        }
        position = b * blockSize;
        sinceDraw = 0;
      }
      sinceDraw = sinceDraw + 1 == iosPerOffset ? 0 : sinceDraw + 1;
      long offset = start + position;
      position += length;
      return offset;
    }
    if (position + length > span) {
      position = 0;
    } else if (position < 0) { // stepping backwards past the start: on from the last block
      position = (span - length) / blockSize * blockSize;
    }
    long offset = start + position;
    position += length + skip;
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
