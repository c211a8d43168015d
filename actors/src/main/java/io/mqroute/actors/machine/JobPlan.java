package io.mqroute.actors.machine;

import java.util.Objects;

/**
 * What one fio job clone does, in the units the machine uses (bytes, nanoseconds). Built from an
 * fio job file by the workload package; tests build it directly.
 *
 * @param index position of this clone among all jobs of the run (also its id prefix)
 * @param group fio's group id: a stonewall starts a new group, which runs after the previous one
 * @param cpus CPUs the app thread may run on (cpus_allowed; all CPUs if unpinned)
 * @param startCpu where the app thread starts
 * @param inFlight requests the job keeps in flight: iodepth for async engines, 1 for sync ones
 * @param foreground sync engine (psync, sync): foreground requests; async engines: background
 * @param readFraction share of reads (rwmixread / 100; 1 for read-only, 0 for write-only)
 * @param random random offsets (randread, randwrite, randrw) instead of sequential
 * @param bsRead read block size in bytes
 * @param bsWrite write block size in bytes
 * @param sizeBytes file size / I/O amount per job (size=)
 * @param fileId the file this job works on
 * @param offset first byte of the job's region (offset=)
 * @param runtimeNanos runtime= (0: none; then size= ends the job)
 * @param rampNanos ramp_time=: completions before it are not measured
 * @param timeBased time_based: loop over the file until runtime ends
 * @param rateReadIops rate_iops= for reads (0: no cap; no cap in either direction: closed loop)
 * @param rateWriteIops rate_iops= for writes (fio: a single value caps each direction, not their
 *     sum)
 * @param poisson rate_process=poisson (exponential gaps) instead of even spacing
 * @param loops loops=: without time_based, the job does size= this many times
 * @param startDelayNanos startdelay=: the job starts this long after its group (runtime counts from
 *     then)
 * @param think thinktime= and its companions ({@link ThinkTime#NONE} for none)
 * @param pattern block-size choices, offset distribution and I/O limits ({@link IoPattern#SIMPLE}:
 *     one size per direction, uniform offsets, size= times loops=); {@code bsRead}/{@code bsWrite}
 *     are then the largest sizes
 * @param control wait_for, exitall and flow control between jobs ({@link JobControl#NONE}: none)
 * @param calls what each I/O sends: a READ or WRITE ({@link IoCalls#DATA}), or the FUSE requests of
 *     the system call of fio's falloc, ftruncate or file-operation engines
 * @param trims the job's I/Os are trims ({@code rw=trim}, {@code randtrim}; only the falloc engine,
 *     whose trim is a hole-punching fallocate): reported as trims, with the write block sizes,
 *     offsets and rate ({@code readFraction} 0)
 * @param ioUring fio's {@code ioengine=io_uring}: on a machine whose kernel punts io_uring's FUSE
 *     reads and writes to io-wq ({@link IoUringPunt#IO_WQ}) an io-wq worker of the job issues them
 */
public record JobPlan(
    int index,
    String name,
    int group,
    int[] cpus,
    int startCpu,
    int inFlight,
    boolean foreground,
    double readFraction,
    boolean random,
    int bsRead,
    int bsWrite,
    long sizeBytes,
    long fileId,
    long offset,
    long runtimeNanos,
    long rampNanos,
    boolean timeBased,
    double rateReadIops,
    double rateWriteIops,
    boolean poisson,
    int loops,
    long startDelayNanos,
    ThinkTime think,
    IoPattern pattern,
    JobControl control,
    IoCalls calls,
    boolean trims,
    boolean ioUring) {

  /**
   * A plan that runs on its own ({@link JobControl#NONE}), with one block size per direction and
   * uniform offsets ({@link IoPattern#SIMPLE}), whose I/Os are reads and writes ({@link
   * IoCalls#DATA}), with fio's defaults for {@code loops} (1), {@code startdelay} and {@code
   * thinktime} (none); {@code rateIops} caps reads and writes each, as a single {@code rate_iops=}
   * value does in fio.
   */
  public static JobPlan of(
      int index,
      String name,
      int group,
      int[] cpus,
      int startCpu,
      int inFlight,
      boolean foreground,
      double readFraction,
      boolean random,
      int bsRead,
      int bsWrite,
      long sizeBytes,
      long fileId,
      long offset,
      long runtimeNanos,
      long rampNanos,
      boolean timeBased,
      double rateIops,
      boolean poisson) {
    return new JobPlan(
        index,
        name,
        group,
        cpus,
        startCpu,
        inFlight,
        foreground,
        readFraction,
        random,
        bsRead,
        bsWrite,
        sizeBytes,
        fileId,
        offset,
        runtimeNanos,
        rampNanos,
        timeBased,
        rateIops,
        rateIops,
        poisson,
        1,
        0,
        ThinkTime.NONE,
        IoPattern.SIMPLE,
        JobControl.NONE,
        IoCalls.DATA,
        false,
        false);
  }

  public static final int MAX_JOBS = 1 << 12;
  public static final int MAX_IN_FLIGHT = 1 << 16;

  public JobPlan {
    if (index < 0 || index >= MAX_JOBS) {
      throw new IllegalArgumentException("at most " + MAX_JOBS + " job clones per run");
    }
    if (inFlight < 1 || inFlight >= MAX_IN_FLIGHT) {
      throw new IllegalArgumentException(
          "iodepth must be in [1, " + (MAX_IN_FLIGHT - 1) + "], was " + inFlight);
    }
    if (bsRead < 1 || bsWrite < 1) {
      throw new IllegalArgumentException("bs must be >= 1 byte");
    }
    if (sizeBytes < Math.max(bsRead, bsWrite)) {
      throw new IllegalArgumentException(
          "size (" + sizeBytes + " bytes) is smaller than one block");
    }
    if (group < 0 || offset < 0) {
      throw new IllegalArgumentException("group and offset must be >= 0");
    }
    if (runtimeNanos == 0 && timeBased) {
      throw new IllegalArgumentException("time_based needs a runtime");
    }
    if (!(rateReadIops >= 0) || !(rateWriteIops >= 0)) {
      throw new IllegalArgumentException("rate_iops must be >= 0");
    }
    if (loops < 1 || startDelayNanos < 0) {
      throw new IllegalArgumentException("loops must be >= 1 and startdelay >= 0");
    }
    Objects.requireNonNull(think, "think");
    Objects.requireNonNull(pattern, "pattern");
    Objects.requireNonNull(control, "control");
    Objects.requireNonNull(calls, "calls");
    if (trims && (calls != IoCalls.FALLOCATE || readFraction != 0)) {
      throw new IllegalArgumentException("only fallocate jobs trim, and they trim only");
    }
    if (calls != IoCalls.DATA && !foreground) {
      throw new IllegalArgumentException(calls + ": fio's engine is synchronous");
    }
    if (ioUring && (foreground || calls != IoCalls.DATA)) {
      throw new IllegalArgumentException("io_uring is an asynchronous engine of reads and writes");
    }
    cpus = cpus.clone();
  }

  /** Open loop: at least one direction the job does is capped by rate_iops. */
  public boolean rated() {
    return (readFraction > 0 && rateReadIops > 0) || (readFraction < 1 && rateWriteIops > 0);
  }

  /**
   * Bytes the job issues before it stops when it is not time-based: size= times loops=
   * (saturating).
   */
  public long ioBytes() {
    if (pattern.ioLimitBytes() > 0) {
      return pattern.ioLimitBytes(); // io_size= replaces size= as the amount (fio: loops apply)
    }
    return sizeBytes > Long.MAX_VALUE / loops ? Long.MAX_VALUE : sizeBytes * loops;
  }

  /** The block sizes of one direction. */
  public BlockSizes sizes(boolean read) {
    BlockSizes s = read ? pattern.readSizes() : pattern.writeSizes();
    return s != null ? s : BlockSizes.fixed(read ? bsRead : bsWrite);
  }

  /** The request id of this job's {@code seq}-th request, using in-flight slot {@code slot}. */
  long requestId(long seq, int slot) {
    return ((long) index << 52) | (seq << 16) | slot;
  }

  static int slotOf(long id) {
    return (int) (id & 0xFFFF);
  }

  static long seqOf(long id) {
    return (id >>> 16) & ((1L << 36) - 1);
  }

  static int jobOf(long id) {
    return (int) (id >>> 52);
  }
}
