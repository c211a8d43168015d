package io.mqroute.actors.machine;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * fio's {@code zonemode=zbd} on the modelled device, reduced to where I/Os go (zbd.c {@code
 * zbd_adjust_block}): the job's region is cut into zones of {@code zonesize}, each with a write
 * pointer. A write goes to a zone's write pointer: sequential jobs fill the zones in turn, random
 * jobs pick a zone (among at most {@code max_open_zones} open ones) and append there; a zone that
 * is full leaves the open set, and when every zone is full the chosen one is reset (its write
 * pointer back to the start; counted in {@link #resets()}). A random read goes below the write
 * pointer of a written zone, anywhere in a zone while none is written.
 *
 * <p>Only the {@code hdd} device and the cluster's file backend look at offsets; the latency
 * devices run the same requests whatever they are. Draws only from the generator it is given. Not
 * thread-safe.
 */
public final class Zones {
  private final long start;
  private final long zoneBytes;
  private final int count;
  private final long[] wp;
  private final int maxOpen;
  private final int[] open;
  private final boolean[] isFull;
  private int openCount;
  private int fullCount;
  private int current;
  private long resets;

  /**
   * @param maxOpen fio's {@code max_open_zones}; 0 or more than the zones: every zone
   */
  public Zones(long start, long regionBytes, long zoneBytes, int maxOpen) {
    if (zoneBytes <= 0 || regionBytes < zoneBytes || maxOpen < 0) {
      throw new IllegalArgumentException(
          "zonemode=zbd needs a zone size > 0 and a region of at least one zone");
    }
    this.start = start;
    this.zoneBytes = zoneBytes;
    this.count = (int) Math.min(Integer.MAX_VALUE, regionBytes / zoneBytes);
    this.wp = new long[count];
    this.isFull = new boolean[count];
    this.maxOpen = maxOpen == 0 ? count : Math.min(maxOpen, count);
    this.open = new int[this.maxOpen];
  }

  /** The offset of a write of {@code length} bytes. */
  public long write(long length, RandomGenerator random, boolean sequential) {
    long len = Math.min(length, zoneBytes);
    int z = sequential ? sequentialZone(len) : randomZone(len, random);
    long offset = start + z * zoneBytes + wp[z];
    wp[z] += len;
    return offset;
  }

  private int sequentialZone(long length) {
    if (wp[current] + length > zoneBytes) {
      current++;
      if (current == count) { // the region is written: fio starts over, resetting the zones
        current = 0;
        Arrays.fill(wp, 0);
        resets += count;
      }
    }
    return current;
  }

  private int randomZone(long length, RandomGenerator random) {
    while (true) {
      if (openCount < maxOpen && fullCount + openCount < count) {
        int z = closedZone(random); // before the slot is taken: isOpen reads openCount
        open[openCount++] = z;
        continue;
      }
      if (openCount == 0) { // every zone is full: reset one to write on
        int z = random.nextInt(count);
        wp[z] = 0;
        isFull[z] = false;
        fullCount--;
        resets++;
        open[openCount++] = z;
      }
      int i = random.nextInt(openCount);
      int z = open[i];
      if (wp[z] + length <= zoneBytes) {
        return z;
      }
      open[i] = open[--openCount]; // full: it leaves the open set
      isFull[z] = true;
      fullCount++;
    }
  }

  /** A random zone neither full nor open (one exists: the caller checked). */
  private int closedZone(RandomGenerator random) {
    int z = random.nextInt(count);
    for (int k = 0; k < count; k++, z = z + 1 == count ? 0 : z + 1) {
      if (!isFull[z] && !isOpen(z)) {
        return z;
      }
    }
    throw new IllegalStateException("no closed zone");
  }

  private boolean isOpen(int z) {
    for (int i = 0; i < openCount; i++) {
      if (open[i] == z) {
        return true;
      }
    }
    return false;
  }

  /** The offset of a random read of {@code length} bytes, aligned to it. */
  public long read(long length, RandomGenerator random) {
    for (int tries = 0; tries < 64; tries++) {
      int z = random.nextInt(count);
      if (wp[z] >= length) {
        return start + z * zoneBytes + random.nextLong(wp[z] / length) * length;
      }
    }
    int z = random.nextInt(count);
    return start + z * zoneBytes + random.nextLong(Math.max(1, zoneBytes / length)) * length;
  }

  /** Zone resets so far (fio's {@code zone resets}). */
  public long resets() {
    return resets;
  }

  /** Zones in the region. */
  public int count() {
    return count;
  }
}
