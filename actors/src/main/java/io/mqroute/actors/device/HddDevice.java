package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import io.mqroute.protocol.Op;
import java.util.random.RandomGenerator;

/**
 * A spinning disk: a request that continues the previous one (same file, next byte) soon enough streams at
 * the media rate; any other pays an average seek plus half a revolution. This is why the seed 004
 * LIFO-per-batch order of QEMU's virtiofsd (g_list_prepend without g_list_reverse) cost 4x on a
 * sequential write: reversing each batch turns a stream into seeks.
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

  /**
   * @param seekNanos        average seek (7200 rpm SATA: about 8.5 ms)
   * @param rpm              spindle speed; half a revolution is the average rotational latency
   * @param bytesPerSecond   sustained media transfer rate (about 150-200 MB/s on a 7200 rpm disk)
   * @param mergeWindowNanos how long after the previous completion a contiguous request still streams
   *                         (the disk's track buffer / the block layer's plugging)
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
  public long serviceNanos(Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    long transfer = (long) length * 1_000_000_000L / bytesPerSecond;
    boolean streams =
        fileId == lastFile && offset == lastEnd && nowNanos - lastDoneNanos <= mergeWindowNanos;
    long t = streams ? transfer : seekNanos + halfRevolutionNanos + transfer;
    lastFile = fileId;
    lastEnd = offset + length;
    lastDoneNanos = nowNanos + t;
    return t;
  }

  @Override
  public String spec() {
    return "hdd(" + Durations.format(seekNanos) + ", " + rpm + ", " + bytesPerSecond + ", "
        + Durations.format(mergeWindowNanos) + ")";
  }
}
