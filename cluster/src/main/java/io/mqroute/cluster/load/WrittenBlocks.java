package io.mqroute.cluster.load;

import java.util.BitSet;

/**
 * What a verifying job knows about its blocks (fio's io_piece log, log_io_piece): which write of
 * each block was acknowledged, so that a read-back has exactly one expected content — the last
 * acknowledged write, or none. Requests to one block may overlap (the job's offsets are fio's, not
 * chosen around what is in flight): a block that had two writes in flight at once, or a write that
 * failed, holds unknown content until a write completes alone; a read that overlapped a write may
 * return either, so it is not checked.
 */
final class WrittenBlocks {
  /** Blocks one verifying clone tracks (4 Mi: 64 MiB of state, a 16 GiB region at 4 KiB blocks). */
  static final long MAX_BLOCKS = 1L << 22;

  /** Unknown content: a write to it failed or overlapped another. */
  static final long UNKNOWN = -1;

  /** Expected content of a read that cannot be checked (it overlapped a write). */
  static final long UNCHECKED = 0;

  private final long[] acked;
  private final int[] writes;
  private final int[] writing;
  private final BitSet overlapped;
  private long ackedCount;

  WrittenBlocks(long blocks) {
    if (blocks < 1 || blocks > MAX_BLOCKS) {
      throw new IllegalArgumentException("blocks " + blocks + " outside 1.." + MAX_BLOCKS);
    }
    this.acked = new long[(int) blocks];
    this.writes = new int[(int) blocks];
    this.writing = new int[(int) blocks];
    this.overlapped = new BitSet((int) blocks);
  }

  int blocks() {
    return acked.length;
  }

  /** A write of {@code block} starts: its generation (1 for the first write, then 2, ...). */
  long startWrite(int block) {
    if (writing[block]++ > 0) {
      overlapped.set(block);
    }
    return ++writes[block];
  }

  /**
   * A read of {@code block} starts: the write it must return ({@link #UNCHECKED} while a write is
   * in flight or none is known, {@link #UNKNOWN}).
   */
  long startRead(int block) {
    return writing[block] > 0 ? UNCHECKED : acked[block];
  }

  /** How many writes of {@code block} have started: a read checks that none started meanwhile. */
  int writesStarted(int block) {
    return writes[block];
  }

  void writeEnded(int block, long generation, boolean ok) {
    boolean known = ok && !overlapped.get(block);
    if (--writing[block] == 0) {
      overlapped.clear(block);
    }
    long now = known ? generation : UNKNOWN;
    if (acked[block] <= 0 && now > 0) {
      ackedCount++;
    } else if (acked[block] > 0 && now <= 0) {
      ackedCount--;
    }
    acked[block] = now;
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
