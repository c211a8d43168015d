package io.mqroute.workload;

/**
 * fio's {@code ioengine=}, reduced to what matters for routing: whether a job submits
 * synchronously.
 *
 * <p>A synchronous engine ({@code psync}, fio's default, and {@code sync}, {@code vsync}, {@code
 * pvsync}, {@code pvsync2}, {@code mmap}) blocks the job thread on each request: the model sends
 * <em>foreground</em> requests, one in flight (fio itself caps {@code iodepth} at 1 for these and
 * says so). An asynchronous engine ({@code io_uring}, {@code libaio}, {@code posixaio}) keeps
 * {@code iodepth} requests in flight: the model sends <em>background</em> requests. {@code null}
 * counts as asynchronous because fio honours its {@code iodepth}.
 */
public enum IoEngine {
  PSYNC("psync", true),
  SYNC("sync", true),
  VSYNC("vsync", true),
  PVSYNC("pvsync", true),
  PVSYNC2("pvsync2", true),
  MMAP("mmap", true),
  LIBAIO("libaio", false),
  IO_URING("io_uring", false),
  POSIXAIO("posixaio", false),
  NULL("null", false);

  private final String fioName;
  private final boolean synchronous;

  IoEngine(String fioName, boolean synchronous) {
    this.fioName = fioName;
    this.synchronous = synchronous;
  }

  /** The engine's name in a job file. */
  public String fioName() {
    return fioName;
  }

  /** True for engines that block per request (one in flight, foreground requests). */
  public boolean synchronous() {
    return synchronous;
  }

  /** The engine for a value of {@code ioengine=}, or null when it is not modelled. */
  static IoEngine fromFio(String value) {
    for (IoEngine e : values()) {
      if (e.fioName.equals(value)) {
        return e;
      }
    }
    return null;
  }

  /** The accepted names, comma separated, for error messages. */
  static String names() {
    StringBuilder sb = new StringBuilder();
    for (IoEngine e : values()) {
      sb.append(sb.length() == 0 ? "" : ", ").append(e.fioName);
    }
    return sb.toString();
  }
}
