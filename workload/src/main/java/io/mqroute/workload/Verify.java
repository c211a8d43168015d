package io.mqroute.workload;

import java.util.Locale;
import java.util.Map;

/**
 * fio's data verification ({@code verify=}, {@code do_verify=}, {@code verify_fatal=}): every block
 * written carries a header and a checksum, and reading it back checks both (fio's verify.c). Only
 * {@code mqroute load} moves real bytes; the model refuses it.
 *
 * @param kind the checksum, {@link Kind#NONE} when verification is off
 * @param doVerify read back and check after the writes ({@code do_verify}, default 1)
 * @param fatal stop the job at the first mismatch ({@code verify_fatal}, default 0)
 */
public record Verify(Kind kind, boolean doVerify, boolean fatal) {
  public static final Verify OFF = new Verify(Kind.NONE, true, false);

  /** The checksums mqroute load computes, by fio's names. */
  public enum Kind {
    /** {@code verify=0}: no verification. */
    NONE("0"),
    /** {@code verify=null}: fio "only pretends to verify": headers are written, nothing checked. */
    NULL("null"),
    MD5("md5"),
    SHA1("sha1"),
    SHA256("sha256"),
    SHA512("sha512"),
    CRC32("crc32"),
    CRC32C("crc32c");

    private final String fioName;

    Kind(String fioName) {
      this.fioName = fioName;
    }

    public String fioName() {
      return fioName;
    }

    /** fio's spellings: crc32c-intel is crc32c computed with the CPU's instruction. */
    static final Map<String, Kind> BY_NAME =
        Map.of(
            "0", NONE,
            "null", NULL,
            "md5", MD5,
            "sha1", SHA1,
            "sha256", SHA256,
            "sha512", SHA512,
            "crc32", CRC32,
            "crc32c", CRC32C,
            "crc32c-intel", CRC32C);

    static String names() {
      return "0, null, md5, sha1, sha256, sha512, crc32, crc32c or crc32c-intel";
    }

    static Kind of(String raw) {
      return BY_NAME.get(raw.toLowerCase(Locale.ROOT));
    }
  }

  public boolean enabled() {
    return kind != Kind.NONE;
  }
}
