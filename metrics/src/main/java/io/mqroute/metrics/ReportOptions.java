package io.mqroute.metrics;

import java.util.Objects;

/**
 * fio's reporting options of one job: which latencies get percentiles, how often bandwidth and IOPS
 * are sampled, and which log files to write (fio's {@code write_*_log} in fio's log format).
 *
 * @param clatPercentiles {@code clat_percentiles} (fio: on)
 * @param latPercentiles {@code lat_percentiles} (fio: off)
 * @param slatPercentiles {@code slat_percentiles} (fio: off)
 * @param bwAvgMs {@code bwavgtime}: a bandwidth sample every this many ms (fio: 500)
 * @param iopsAvgMs {@code iopsavgtime}: an IOPS sample every this many ms (fio: 500)
 * @param latLog {@code write_lat_log} prefix, null for none
 * @param bwLog {@code write_bw_log} prefix, null for none
 * @param iopsLog {@code write_iops_log} prefix, null for none
 * @param logAvgMs {@code log_avg_msec}: 0 logs every I/O, else averages over windows of this
 * @param header what fio's text output says of the job before it starts ({@code rw=randread, bs=(R)
 *     4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=psync, iodepth=1}), or ""
 */
public record ReportOptions(
    boolean clatPercentiles,
    boolean latPercentiles,
    boolean slatPercentiles,
    long bwAvgMs,
    long iopsAvgMs,
    String latLog,
    String bwLog,
    String iopsLog,
    long logAvgMs,
    String header) {

  /** fio's defaults. */
  public static final ReportOptions FIO_DEFAULT =
      new ReportOptions(true, false, false, 500, 500, null, null, null, 0, "");

  public ReportOptions {
    header = header == null ? "" : header;
    if (bwAvgMs < 1 || iopsAvgMs < 1 || logAvgMs < 0) {
      throw new IllegalArgumentException(
          "bwavgtime and iopsavgtime must be >= 1 ms, log_avg_msec >= 0");
    }
  }

  /** Any log file asked for. */
  public boolean logs() {
    return latLog != null || bwLog != null || iopsLog != null;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ReportOptions r
        && r.clatPercentiles == clatPercentiles
        && r.latPercentiles == latPercentiles
        && r.slatPercentiles == slatPercentiles
        && r.bwAvgMs == bwAvgMs
        && r.iopsAvgMs == iopsAvgMs
        && Objects.equals(r.latLog, latLog)
        && Objects.equals(r.bwLog, bwLog)
        && Objects.equals(r.iopsLog, iopsLog)
        && r.logAvgMs == logAvgMs
        && Objects.equals(r.header, header);
  }

  @Override
  public int hashCode() {
    return Objects.hash(clatPercentiles, latPercentiles, bwAvgMs, iopsAvgMs, latLog, bwLog);
  }
}
