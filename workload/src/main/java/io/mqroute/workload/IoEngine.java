package io.mqroute.workload;

import io.mqroute.actors.machine.IoCalls;
import java.util.Map;
import java.util.Objects;

/**
 * fio's {@code ioengine=}, reduced to what the model distinguishes: how a job submits.
 *
 * <ul>
 *   <li><b>sync family</b>: fio's engines flagged {@code FIO_SYNCIO} ({@code psync}, fio's default,
 *       {@code sync}, {@code vsync}, {@code pvsync}, {@code pvsync2}, {@code mmap}, and the storage
 *       engines with the same flag, such as {@code libpmem}, {@code libzbc}, {@code libcufile},
 *       {@code ime_psync}) block the job thread on each request: the model sends
 *       <em>foreground</em> requests, one in flight (fio caps {@code iodepth} at 1 for them and
 *       says so).
 *   <li><b>async family</b>: every other engine that reads and writes at offsets ({@code libaio},
 *       {@code io_uring}, {@code io_uring_cmd}, {@code posixaio}, {@code libblkio}, {@code xnvme},
 *       {@code sg}, {@code nbd}, {@code rbd}, ...) keeps {@code iodepth} requests in flight: the
 *       model sends <em>background</em> requests.
 *   <li><b>null</b> ({@code null}, {@code cpp_null}): fio's engine that completes without I/O; it
 *       honours {@code iodepth}, so the model runs it as the async family.
 * </ul>
 *
 * <p>Engines whose I/O is a system call that sends other FUSE requests are in the sync family (fio
 * flags them {@code FIO_SYNCIO}) and send those requests instead ({@link #calls()}): {@code falloc}
 * (FALLOCATE), {@code ftruncate} (SETATTR) and the file-operation engines {@code filecreate},
 * {@code filestat}, {@code filedelete}, {@code dircreate}, {@code dirstat}, {@code dirdelete}
 * (LOOKUP, GETATTR, CREATE, UNLINK, MKDIR, RMDIR). Engines that send no FUSE request are refused
 * with why (see {@link #REFUSED}). The flags come from fio's own source ({@link FioTable}).
 */
public record IoEngine(String fioName, Family family) {

  /** What the model distinguishes. */
  public enum Family {
    SYNC,
    ASYNC,
    NULL
  }

  public static final IoEngine PSYNC = new IoEngine("psync", Family.SYNC);
  public static final IoEngine SYNC = new IoEngine("sync", Family.SYNC);
  public static final IoEngine LIBAIO = new IoEngine("libaio", Family.ASYNC);
  public static final IoEngine IO_URING = new IoEngine("io_uring", Family.ASYNC);
  public static final IoEngine NULL = new IoEngine("null", Family.NULL);

  /** The engines whose I/O is a system call other than a read or write, and what it sends. */
  private static final Map<String, IoCalls> CALLS =
      Map.of(
          "falloc", IoCalls.FALLOCATE,
          "ftruncate", IoCalls.FTRUNCATE,
          "filecreate", IoCalls.FILE_CREATE,
          "filestat", IoCalls.FILE_STAT,
          "filedelete", IoCalls.FILE_DELETE,
          "dircreate", IoCalls.DIR_CREATE,
          "dirstat", IoCalls.DIR_STAT,
          "dirdelete", IoCalls.DIR_DELETE);

  /** Engines fio has that the model cannot honour, and why. */
  static final Map<String, String> REFUSED =
      Map.ofEntries(
          Map.entry("cpuio", "burns CPU and does no I/O"),
          Map.entry("exec", "runs a program and does no I/O"),
          Map.entry("net", "sends data over a network socket, not to a file system's queues"),
          Map.entry("netsplice", "sends data over a network socket, not to a file system's queues"),
          Map.entry("splice", "moves data through a pipe, not to a file system's queues"),
          Map.entry("rdma", "moves data over RDMA verbs, not to a file system's queues"),
          Map.entry(
              "http",
              "sends HTTP object requests (S3, Swift, WebDAV), not reads and writes at offsets"),
          Map.entry(
              "e4defrag",
              "issues ext4's defragmentation ioctl (EXT4_IOC_MOVE_EXT): on a FUSE file it is a"
                  + " FUSE_IOCTL, which libfuse's passthrough_hp answers ENOSYS (measured) and no"
                  + " modelled server serves"),
          Map.entry(
              "page_fault",
              "does its I/O by page faults on a mapped file, through the page cache, which the model"
                  + " does not have"),
          Map.entry("engine_name", "is fio's skeleton example, not an engine"));

  public IoEngine {
    Objects.requireNonNull(fioName, "fioName");
    Objects.requireNonNull(family, "family");
  }

  /** What each I/O of this engine sends: a read or write, or another system call's requests. */
  public IoCalls calls() {
    return CALLS.getOrDefault(fioName, IoCalls.DATA);
  }

  /** True for engines that block per request (one in flight, foreground requests). */
  public boolean synchronous() {
    return family == Family.SYNC;
  }

  /**
   * The engine for a value of {@code ioengine=}.
   *
   * @throws FioValues.BadValue naming why the model cannot run it
   */
  static IoEngine fromFio(String value) throws FioValues.BadValue {
    String why = REFUSED.get(value);
    if (why != null) {
      throw new FioValues.BadValue("fio's " + value + " engine " + why, true);
    }
    if (value.equals("null") || value.equals("cpp_null")) {
      return new IoEngine(value, Family.NULL);
    }
    if (value.startsWith("external:")) {
      throw new FioValues.BadValue("an external engine's behaviour is unknown to the model", true);
    }
    FioTable.Engine e = FioTable.engine(value);
    if (e == null) {
      throw new FioValues.BadValue(
          "one of fio's I/O engines, such as psync, libaio, io_uring or null", false);
    }
    return new IoEngine(value, e.flags().contains("FIO_SYNCIO") ? Family.SYNC : Family.ASYNC);
  }
}
