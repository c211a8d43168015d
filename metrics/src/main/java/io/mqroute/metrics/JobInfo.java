package io.mqroute.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the reports need to know about one job clone besides its measurements.
 *
 * @param name the job name ({@code jobname}); clones of one job share it
 * @param groupId fio's group id ({@code stonewall} starts a new group)
 * @param pid printed where fio prints the process id; mqroute uses the clone's index
 * @param description fio's {@code description=}, empty when unset
 * @param options the options written for this job, as strings (JSON {@code "job options"})
 * @param percentiles the percentiles to report
 * @param iodepth the requests the job keeps in flight (1 for synchronous engines); shown as {@code
 *     latency depth} and used for {@code IO depths} when no depth was sampled
 * @param groupReporting fio's {@code group_reporting}: clones of one group are reported as one
 * @param kbBase fio's {@code kb_base}: 1024 prints IEC figures first, 1000 SI figures first
 * @param report fio's reporting options (percentiles, sampling, logs); null for fio's defaults
 */
public record JobInfo(
    String name,
    int groupId,
    int pid,
    String description,
    Map<String, String> options,
    PercentileList percentiles,
    int iodepth,
    boolean groupReporting,
    int kbBase,
    ReportOptions report) {

  /** Validates and copies the options (keeping their order). */
  public JobInfo {
    Objects.requireNonNull(name, "name");
    description = description == null ? "" : description;
    options =
        options == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(options));
    percentiles = percentiles == null ? PercentileList.FIO_DEFAULT : percentiles;
    report = report == null ? ReportOptions.FIO_DEFAULT : report;
    if (groupId < 0) {
      throw new IllegalArgumentException("groupId must be >= 0, got " + groupId);
    }
    if (iodepth < 1) {
      throw new IllegalArgumentException("iodepth must be >= 1, got " + iodepth);
    }
    if (kbBase != 1000 && kbBase != 1024) {
      throw new IllegalArgumentException("kbBase must be 1000 or 1024, got " + kbBase);
    }
  }

  /** A plain job: group 0, pid 1, fio's defaults everywhere else. Handy in tests. */
  public static JobInfo named(String name) {
    return new JobInfo(
        name,
        0,
        1,
        "",
        Map.of(),
        PercentileList.FIO_DEFAULT,
        1,
        false,
        1024,
        ReportOptions.FIO_DEFAULT);
  }

  /** A copy in another group with another pid. */
  public JobInfo withGroup(int newGroupId, int newPid) {
    return new JobInfo(
        name,
        newGroupId,
        newPid,
        description,
        options,
        percentiles,
        iodepth,
        groupReporting,
        kbBase,
        report);
  }

  /** A copy with group reporting switched on or off. */
  public JobInfo withGroupReporting(boolean on) {
    return new JobInfo(
        name, groupId, pid, description, options, percentiles, iodepth, on, kbBase, report);
  }
}
