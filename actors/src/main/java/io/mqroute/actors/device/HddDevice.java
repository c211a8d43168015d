package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * A spinning disk: a request that continues the previous one (same file, next byte) soon enough
 * streams at the media rate; any other pays an average seek plus half a revolution. This is why the
 * seed 004 LIFO-per-batch order of QEMU's virtiofsd (g_list_prepend without g_list_reverse) cost 4x
 * on a sequential write: reversing each batch turns a stream into seeks.
 *
 * <p>One head: the machine has one instance ({@link #onePerMachine()}) and a request that arrives
 * while the disk is busy waits for it (no command queueing or reordering in the drive), so a pool
 * of server threads or several queues share one disk's rate instead of each getting a disk of their
 * own. The head is booked when the request reaches the disk (after a server thread's CPU work, on
 * per-cpu queues); an injected slowdown stretches the request but not the booking.
 */
public final class HddDevice implements Device {
  private final long seekNanos;
  private final int rpm;
  private final long bytesPerSecond;
  private final long mergeWindowNanos;
  private final long halfRevolutionNanos;

  private long lastFile = Long.MIN_VALUE;
  private long lastEnd = -1;
  private long lastDoneNanos = Long.MIN_VALUE / 2;

  /** When the head is free: the end of the last request started. */
  private long busyUntil = Long.MIN_VALUE / 2;

  /**
   * @param seekNanos average seek (7200 rpm SATA: about 8.5 ms)
   * @param rpm spindle speed; half a revolution is the average rotational latency
   * @param bytesPerSecond sustained media transfer rate (about 150-200 MB/s on a 7200 rpm disk)
   * @param mergeWindowNanos how long after the previous completion a contiguous request still
   *     streams (the disk's track buffer / the block layer's plugging)
   */
  public HddDevice(long seekNanos, int rpm, long bytesPerSecond, long mergeWindowNanos) {
    this.seekNanos = Devices.requireNonNegative("hdd seek", seekNanos);
    if (rpm < 1 || rpm > 30_000) {
      throw new IllegalArgumentException("hdd rpm must be in [1, 30000], was " + rpm);
    }
    this.rpm = rpm;
    this.bytesPerSecond = Devices.requirePositive("hdd transfer-rate", bytesPerSecond);
    this.mergeWindowNanos = Devices.requireNonNegative("hdd merge window", mergeWindowNanos);
    this.halfRevolutionNanos = 30_000_000_000L / rpm;
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    long start = Math.max(nowNanos, busyUntil);
    long transfer = (long) length * 1_000_000_000L / bytesPerSecond;
    boolean streams =
        fileId == lastFile && offset == lastEnd && start - lastDoneNanos <= mergeWindowNanos;
    long t = streams ? transfer : seekNanos + halfRevolutionNanos + transfer;
    lastFile = fileId;
    lastEnd = offset + length;
    lastDoneNanos = start + t;
    busyUntil = start + t;
    return busyUntil - nowNanos; // the wait for the head, then the request's own time
  }

  /**
   * Reads and writes only: a metadata request's cost on a disk depends on where the file system
   * keeps inodes, directories and its journal, which this model of data placement does not have.
   */
  @Override
  public boolean serves(Op op) {
    return op.isData();
  }

  @Override
  public boolean onePerMachine() {
    return true;
  }

  @Override
  public String spec() {
    return "hdd("
        + Durations.format(seekNanos)
        + ", "
        + rpm
        + ", "
        + bytesPerSecond
        + ", "
        + Durations.format(mergeWindowNanos)
        + ")";
  }
}
