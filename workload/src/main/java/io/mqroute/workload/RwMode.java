package io.mqroute.workload;

/**
 * fio's {@code rw=} (alias {@code readwrite=}): the I/O pattern of a job. The trim modes run only
 * with the falloc engine, whose trim is a hole-punching fallocate ({@code trimwrite} and {@code
 * randtrimwrite} are refused by the parser).
 */
public enum RwMode {
  READ("read", false, true, false),
  WRITE("write", false, false, true),
  RANDREAD("randread", true, true, false),
  RANDWRITE("randwrite", true, false, true),
  /** Mixed sequential reads and writes; fio accepts it as {@code rw} or {@code readwrite}. */
  READWRITE("rw", false, true, true),
  RANDRW("randrw", true, true, true),
  /** Sequential trims; a job's trims use its write block size, offsets and rate. */
  TRIM("trim", false, false, false),
  RANDTRIM("randtrim", true, false, false);

  private final String fioName;
  private final boolean random;
  private final boolean reads;
  private final boolean writes;

  RwMode(String fioName, boolean random, boolean reads, boolean writes) {
    this.fioName = fioName;
    this.random = random;
    this.reads = reads;
    this.writes = writes;
  }

  /** The value fio prints, e.g. {@code randread} or {@code rw}. */
  public String fioName() {
    return fioName;
  }

  /** Random offsets (as opposed to sequential). */
  public boolean isRandom() {
    return random;
  }

  /** Issues reads. */
  public boolean reads() {
    return reads;
  }

  /** Issues writes. */
  public boolean writes() {
    return writes;
  }

  /** Issues trims (and nothing else). */
  public boolean trims() {
    return this == TRIM || this == RANDTRIM;
  }

  /** Both reads and writes, split by {@code rwmixread}. */
  public boolean isMixed() {
    return reads && writes;
  }

  /** The mode for a value of {@code rw=}, or null if fio has no such mode here. */
  static RwMode fromFio(String value) {
    if ("readwrite".equals(value)) {
      return READWRITE;
    }
    for (RwMode m : values()) {
      if (m.fioName.equals(value)) {
        return m;
      }
    }
    return null;
  }
}
