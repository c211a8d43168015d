package io.mqroute.cluster.load;

import io.mqroute.workload.Verify;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.zip.CRC32;
import java.util.zip.CRC32C;
import java.util.zip.Checksum;

/**
 * The bytes of one verified block and their check, as fio's verify.c does it (populate_verify_io_u
 * / verify_io_u): a header naming the block (magic, length, file, offset, which write of the block
 * it is), seeded pseudo-random fill, and a checksum of the whole block. A read-back that names
 * another offset or file, an older write, or fails the checksum is reported with fio's kind of
 * message. The layout is mqroute's own: fio's tools never read these files.
 *
 * <pre>
 *   0 magic "mqv1" · 4 kind · 5..7 zero · 8 block length · 12 digest length · 16 file id
 *   · 24 offset · 32 generation · 40 seed · 48 digest (zeroed while computing it) · fill
 * </pre>
 *
 * Little-endian; {@link #HEADER} + the digest must fit the block ({@link #minBlockBytes}).
 */
final class BlockVerifier {
  static final int MAGIC = 0x3176716d; // "mqv1" little-endian
  static final int HEADER = 48;

  private final Verify.Kind kind;
  private final long fileId;
  private final long seed;
  private final int blockBytes;
  private final int digestBytes;

  BlockVerifier(Verify.Kind kind, long fileId, long seed, int blockBytes) {
    if (kind == Verify.Kind.NONE) {
      throw new IllegalArgumentException("verification is off");
    }
    this.kind = kind;
    this.fileId = fileId;
    this.seed = seed;
    this.blockBytes = blockBytes;
    this.digestBytes = digestBytes(kind);
    if (blockBytes < minBlockBytes(kind)) {
      throw new IllegalArgumentException(
          "block of " + blockBytes + " bytes is smaller than the verify header");
    }
  }

  /** The smallest block that holds the header and {@code kind}'s digest. */
  static int minBlockBytes(Verify.Kind kind) {
    return HEADER + digestBytes(kind);
  }

  private static int digestBytes(Verify.Kind kind) {
    return switch (kind) {
      case NONE, NULL -> 0;
      case CRC32, CRC32C -> 4;
      case MD5 -> 16;
      case SHA1 -> 20;
      case SHA256 -> 32;
      case SHA512 -> 64;
    };
  }

  /** The bytes of the {@code generation}-th write (1, 2, ...) of the block at {@code offset}. */
  byte[] block(long offset, long generation) {
    byte[] b = new byte[blockBytes];
    ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
    h.putInt(0, MAGIC);
    b[4] = (byte) kind.ordinal();
    h.putInt(8, blockBytes);
    h.putInt(12, digestBytes);
    h.putLong(16, fileId);
    h.putLong(24, offset);
    h.putLong(32, generation);
    h.putLong(40, seed);
    // fill that differs per block and per write: a stale or misplaced block cannot pass as this one
    SplittableRandom fill = new SplittableRandom(seed ^ offset * 0x9E3779B97F4A7C15L ^ generation);
    int from = HEADER + digestBytes;
    for (int i = from; i < blockBytes; i += 8) {
      long v = fill.nextLong();
      for (int k = 0; k < 8 && i + k < blockBytes; k++) {
        b[i + k] = (byte) (v >>> (8 * k));
      }
    }
    System.arraycopy(digest(b), 0, b, HEADER, digestBytes); // the field is still zeros here
    return b;
  }

  /**
   * Why {@code data}, read at {@code offset}, is not the {@code generation}-th write of that block
   * (fio's "verify: bad magic header", "bad header offset", ...), or null when it is. With {@code
   * verify=null} nothing is checked, as in fio.
   */
  String check(byte[] data, long offset, long generation) {
    if (kind == Verify.Kind.NULL) {
      return null;
    }
    String where = "file " + fileId + " offset " + offset + " length " + blockBytes;
    if (data == null || data.length != blockBytes) {
      return "verify: read returned "
          + (data == null ? "no data" : data.length + " bytes")
          + " at "
          + where;
    }
    ByteBuffer h = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
    if (h.getInt(0) != MAGIC) {
      return String.format(
          "verify: bad magic header %x, wanted %x at %s", h.getInt(0), MAGIC, where);
    }
    if (h.getLong(24) != offset || h.getLong(16) != fileId) {
      return "verify: bad header offset "
          + h.getLong(24)
          + " (file "
          + h.getLong(16)
          + "), wanted "
          + offset
          + " at "
          + where;
    }
    if (h.getLong(32) != generation) {
      return "verify: stale block: write "
          + h.getLong(32)
          + " of it, wanted write "
          + generation
          + " at "
          + where;
    }
    byte[] want = Arrays.copyOfRange(data, HEADER, HEADER + digestBytes);
    Arrays.fill(data, HEADER, HEADER + digestBytes, (byte) 0); // digested as it was written
    byte[] got = digest(data);
    System.arraycopy(want, 0, data, HEADER, digestBytes);
    if (!MessageDigest.isEqual(want, got)) {
      return "verify: " + kind.fioName() + " checksum mismatch at " + where;
    }
    return null;
  }

  /** The digest of {@code b} (whose digest field the caller has zeroed). */
  private byte[] digest(byte[] b) {
    return switch (kind) {
      case NONE, NULL -> new byte[0];
      case CRC32 -> crc(new CRC32(), b);
      case CRC32C -> crc(new CRC32C(), b);
      case MD5 -> md(b, "MD5");
      case SHA1 -> md(b, "SHA-1");
      case SHA256 -> md(b, "SHA-256");
      case SHA512 -> md(b, "SHA-512");
    };
  }

  private static byte[] crc(Checksum c, byte[] b) {
    c.update(b, 0, b.length);
    int v = (int) c.getValue();
    return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
  }

  private static byte[] md(byte[] b, String algorithm) {
    try {
      return MessageDigest.getInstance(algorithm).digest(b);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java 17 runtime has " + algorithm, e);
    }
  }
}
