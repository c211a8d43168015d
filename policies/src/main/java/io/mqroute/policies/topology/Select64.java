package io.mqroute.policies.topology;

/**
 * Branch-free position of the {@code r}-th set bit of a word (Vigna's broadword select): byte-wise
 * popcounts, a SWAR compare to find the byte, then a 2 KiB table for the bit inside that byte. A
 * bit-clearing loop costs a mispredicted branch per call at random ranks; this costs none.
 */
final class Select64 {

  private static final long ONES_STEP_4 = 0x1111111111111111L;
  private static final long ONES_STEP_8 = 0x0101010101010101L;
  private static final long MSBS_STEP_8 = 0x80L * ONES_STEP_8;

  /** {@code IN_BYTE[b | r << 8]}: position of the r-th set bit of byte b (0 if absent). */
  private static final byte[] IN_BYTE = new byte[256 * 8];

  static {
    for (int b = 0; b < 256; b++) {
      for (int bit = 0, r = 0; bit < 8; bit++) {
        if ((b & (1 << bit)) != 0) {
          IN_BYTE[b | r++ << 8] = (byte) bit;
        }
      }
    }
  }

  private Select64() {}

  /**
   * Index of the {@code rank}-th (from 0) set bit of {@code x}; requires {@code rank <
   * bitCount(x)}.
   */
  static int select(long x, int rank) {
    long byteSums = x - ((x & 0xa * ONES_STEP_4) >>> 1);
    byteSums = (byteSums & 3 * ONES_STEP_4) + ((byteSums >>> 2) & 3 * ONES_STEP_4);
    byteSums = (byteSums + (byteSums >>> 4)) & 0x0f * ONES_STEP_8;
    byteSums *= ONES_STEP_8; // byte i now holds the popcount of bytes 0..i
    long rankStep8 = rank * ONES_STEP_8;
    int byteOffset =
        (int) (((((rankStep8 | MSBS_STEP_8) - byteSums) & MSBS_STEP_8) >>> 7) * ONES_STEP_8 >>> 53)
            & ~0x7;
    int byteRank = (int) (rank - (((byteSums << 8) >>> byteOffset) & 0xFF));
    return byteOffset + IN_BYTE[((int) (x >>> byteOffset) & 0xFF) | byteRank << 8];
  }
}
