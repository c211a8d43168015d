package io.mqroute.cluster.load;

import java.util.BitSet;

/**
 * What a verifying job knows about its blocks (fio's io_piece log, log_io_piece): which write of
 * each block was acknowledged, and which blocks have a request in flight. A block is used by one
 * request at a time, so a read-back always has exactly one expected content: the last acknowledged
 * write, or none (never written, or a write that failed left it unknown).
 */
final class WrittenBlocks {
  /** Blocks one verifying clone tracks (4 Mi: 48 MiB of state, a 16 GiB region at 4 KiB blocks). */
  static final long MAX_BLOCKS = 1L << 22;

  /** Unknown content: a write to it failed, so it may or may not have reached the device. */
  static final long UNKNOWN = -1;

  private final long[] acked;
  private final int[] writes;
  private final BitSet busy;
  private long ackedCount;

  WrittenBlocks(long blocks) {
    if (blocks < 1 || blocks > MAX_BLOCKS) {
      throw new IllegalArgumentException("blocks " + blocks + " outside 1.." + MAX_BLOCKS);
    }
    this.acked = new long[(int) blocks];
    this.writes = new int[(int) blocks];
    this.busy = new BitSet((int) blocks);
  }

  int blocks() {
    return acked.length;
  }

  /** The first block from {@code from} on (wrapping) with nothing in flight, or -1. */
  int free(int from) {
    int b = busy.nextClearBit(from);
    if (b < acked.length) {
      return b;
    }
    b = busy.nextClearBit(0);
    return b < acked.length ? b : -1;
  }

  /** A write of {@code block} starts: its generation (1 for the first write, then 2, ...). */
  long startWrite(int block) {
    busy.set(block);
    return ++writes[block];
  }

  /** A read of {@code block} starts: the write it must return (0: none known, {@link #UNKNOWN}). */
  long startRead(int block) {
    busy.set(block);
    return acked[block];
  }

  void writeEnded(int block, long generation, boolean ok) {
    busy.clear(block);
    if (acked[block] <= 0 && ok) {
      ackedCount++;
    } else if (acked[block] > 0 && !ok) {
      ackedCount--;
    }
    acked[block] = ok ? generation : UNKNOWN;
  }

  void readEnded(int block) {
    busy.clear(block);
  }

  /** Blocks whose content is known (an acknowledged write): what the verify phase reads back. */
  long ackedCount() {
    return ackedCount;
  }

  /** The next block from {@code from} on with an acknowledged write, or -1. */
  int nextAcked(int from) {
    for (int b = from; b < acked.length; b++) {
      if (acked[b] > 0) {
        return b;
      }
    }
    return -1;
  }
}
