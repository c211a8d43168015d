package io.mqroute.metrics;

/**
 * The measurements of one direction (read or write) of one job: completed I/Os, bytes and the three
 * latency series fio reports. Only successful completions count here; failed ones are counted by
 * {@link JobStats#totalErrors()}.
 */
public final class DirectionStats {

  private long totalIos;
  private long ioBytes;
  private long errors;
  private final LatencyStat slat = new LatencyStat();
  private final LatencyStat clat = new LatencyStat();
  private final LatencyStat lat = new LatencyStat();

  void recordOk(long bytes, long slatNs, long clatNs) {
    totalIos++;
    ioBytes += bytes;
    if (slatNs >= 0) {
      slat.record(slatNs);
    }
    clat.record(clatNs);
    lat.record(Math.max(0, slatNs) + clatNs);
  }

  /** A completion latency without an I/O (fio's add_clat_sample for a file-operation call). */
  void recordClat(long clatNs) {
    clat.record(clatNs);
  }

  /** I/Os without latencies (an engine's fake I/Os). */
  void recordIos(long count, long bytes) {
    totalIos += count;
    ioBytes += bytes;
  }

  void recordError() {
    errors++;
  }

  void add(DirectionStats other) {
    totalIos += other.totalIos;
    ioBytes += other.ioBytes;
    errors += other.errors;
    slat.add(other.slat);
    clat.add(other.clat);
    lat.add(other.lat);
  }

  /** Completed I/Os (fio's {@code total_ios}). */
  public long totalIos() {
    return totalIos;
  }

  /** Bytes transferred by completed I/Os (fio's {@code io_bytes}). */
  public long ioBytes() {
    return ioBytes;
  }

  /** Failed I/Os in this direction. */
  public long errors() {
    return errors;
  }

  /** fio's {@code short_ios}: always 0, the model has no short transfers. */
  public long shortIos() {
    return 0;
  }

  /** fio's {@code drop_ios}: always 0, the model drops nothing silently. */
  public long dropIos() {
    return 0;
  }

  /** Submission latency: from the job issuing the request to the request being queued. */
  public LatencyStat slat() {
    return slat;
  }

  /** Completion latency: from queued to completed. */
  public LatencyStat clat() {
    return clat;
  }

  /** Total latency: slat + clat. */
  public LatencyStat lat() {
    return lat;
  }
}
