package io.mqroute.workload;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * fio's data verification ({@code verify=}, {@code do_verify=}, {@code verify_fatal=}): every block
 * written carries a header and a checksum, and reading it back checks both (fio's verify.c). Only
 * {@code mqroute load} moves real bytes and checks them; the model carries no data, so for it the
 * method only decides that the job reads back what it wrote, whichever of fio's methods it is.
 *
 * @param kind the checksum as {@code mqroute load} computes it, {@link Kind#NONE} when verification
 *     is off, null for a method of fio's that the load client does not compute ({@code crc64},
 *     {@code meta}, ...: {@code mqroute load} refuses it)
 * @param doVerify read back and check after the writes ({@code do_verify}, default 1)
 * @param fatal stop the job at the first mismatch ({@code verify_fatal}, default 0)
 * @param method fio's name of the method as written ({@code 0} when off)
 */
public record Verify(Kind kind, boolean doVerify, boolean fatal, String method) {
  public static final Verify OFF = new Verify(Kind.NONE, true, false, Kind.NONE.fioName());

  /** fio's verify= methods (options.c), in fio's order. */
  static final List<String> FIO_METHODS =
      List.of(
          "0",
          "md5",
          "crc64",
          "crc32",
          "crc32c-intel",
          "crc32c",
          "crc16",
          "crc7",
          "sha1",
          "sha256",
          "sha512",
          "sha3-224",
          "sha3-256",
          "sha3-384",
          "sha3-512",
          "xxhash",
          "meta",
          "pattern",
          "pattern_hdr",
          "null");

  public Verify {
    Objects.requireNonNull(method, "method");
  }

  /** Whether {@code mqroute load} computes this method. */
  public boolean loadComputes() {
    return kind != null;
  }

  /** The checksums mqroute load computes, by fio's names (a subset of {@link #FIO_METHODS}). */
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

    /** The load client's methods, for its refusal. */
    public static String names() {
      return "0, null, md5, sha1, sha256, sha512, crc32, crc32c or crc32c-intel";
    }

    static Kind of(String raw) {
      return BY_NAME.get(raw.toLowerCase(Locale.ROOT));
    }
  }

  public boolean enabled() {
    return !method.equals("0");
  }
}
