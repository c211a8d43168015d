package io.mqroute.workload;

import io.mqroute.actors.machine.IoPattern;
import io.mqroute.actors.machine.ThinkTime;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.PercentileList;
import io.mqroute.metrics.ReportOptions;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One fio job as parsed from a job file: every option resolved (globals applied, fio defaults
 * filled in) into base units, bytes and nanoseconds. {@code numjobs} clones of it run; cloning is
 * the caller's job.
 *
 * @param name job name (the section name, or {@code name=})
 * @param description {@code description=}, {@code ""} when unset
 * @param groupId fio's group id: 0 for the first group, +1 at each {@code stonewall}
 * @param stonewall wait for all jobs above to finish before starting
 * @param numjobs number of clones
 * @param rw the I/O pattern
 * @param rwmixRead percentage of reads in mixed modes ({@code rwmixread}, or 100 - {@code
 *     rwmixwrite}; default 50)
 * @param blockSizeRead read block size in bytes (default 4096)
 * @param blockSizeWrite write block size in bytes (default 4096)
 * @param ioengine the engine (default {@link IoEngine#PSYNC}, fio's default)
 * @param iodepth {@code iodepth} as written (default 1); see {@link #inFlight()}
 * @param direct {@code direct=1} (O_DIRECT)
 * @param size bytes of I/O per job pass ({@code size}; defaults to {@code filesize - offset})
 * @param fileSize {@code filesize} in bytes, 0 when unset
 * @param offset {@code offset} in bytes where I/O starts
 * @param nrfiles {@code nrfiles} (recorded; default 1)
 * @param loops {@code loops} (default 1)
 * @param runtimeNs {@code runtime} in ns, 0 for no limit
 * @param timeBased {@code time_based}: repeat the workload until {@code runtime}
 * @param rampTimeNs {@code ramp_time} in ns, left out of the statistics
 * @param startDelayNs {@code startdelay} in ns
 * @param rateIopsRead read IOPS cap per clone, 0 for none ({@code rate_iops}, or {@code rate} /
 *     read bs)
 * @param rateIopsWrite write IOPS cap per clone, 0 for none
 * @param rateProcess how rate-capped submissions are spaced
 * @param think {@code thinktime}, {@code thinktime_spin}, {@code thinktime_blocks(_type)}
 * @param cpusAllowed {@code cpus_allowed}, {@link CpuList#ALL} when unset
 * @param cpusAllowedPolicy {@code cpus_allowed_policy} (default shared)
 * @param fsyncEvery {@code fsync}: issue an fsync after every N writes, 0 for never
 * @param groupReporting {@code group_reporting}
 * @param thread {@code thread} (recorded)
 * @param filename {@code filename}, {@code ""} when unset (recorded)
 * @param directory {@code directory}, {@code ""} when unset (recorded)
 * @param percentiles {@code percentile_list} (default fio's 17 percentiles)
 * @param kbBase {@code kb_base}, 1024 or 1000
 * @param verify {@code verify=} and its companions ({@link Verify#OFF} without them)
 * @param line the line of the job's {@code [section]} (argument index on a command line)
 * @param explicitOptions the options written in this job's own section, canonical names, values as
 *     written ({@code ""} for a bare flag), in order: fio's JSON {@code "job options"}
 * @param pattern block-size choices ({@code bssplit}, {@code bsrange}), {@code
 *     random_distribution}, the {@code rw=} offset modifier, {@code blockalign}, {@code io_size},
 *     {@code number_ios}; block sizes above are then the largest
 * @param buffered {@code direct=0} or {@code buffered=1} was written
 * @param offsetIncrement {@code offset_increment}: clone k starts {@code k} times this further in
 * @param minRateRead {@code rate_min} (or {@code rate_iops_min} times bs) for reads, bytes/s, 0 for
 *     none
 * @param minRateWrite the same for writes
 * @param rateCycleNs {@code ratecycle}: the window {@code rate_min} is checked over (fio: 1000 ms)
 * @param report percentiles, bandwidth/IOPS sampling and log files
 * @param numaCpuNodes {@code numa_cpu_nodes}: the job runs on the CPUs of these NUMA nodes ({@link
 *     CpuList#ALL} when unset)
 * @param control {@code wait_for}, {@code exitall} / {@code exit_what}, {@code new_group} and flow
 *     control
 */
public record JobSpec(
    String name,
    String description,
    int groupId,
    boolean stonewall,
    int numjobs,
    RwMode rw,
    int rwmixRead,
    long blockSizeRead,
    long blockSizeWrite,
    IoEngine ioengine,
    int iodepth,
    boolean direct,
    long size,
    long fileSize,
    long offset,
    int nrfiles,
    int loops,
    long runtimeNs,
    boolean timeBased,
    long rampTimeNs,
    long startDelayNs,
    double rateIopsRead,
    double rateIopsWrite,
    RateProcess rateProcess,
    ThinkTime think,
    CpuList cpusAllowed,
    CpusAllowedPolicy cpusAllowedPolicy,
    int fsyncEvery,
    boolean groupReporting,
    boolean thread,
    String filename,
    String directory,
    PercentileList percentiles,
    int kbBase,
    Verify verify,
    int line,
    Map<String, String> explicitOptions,
    IoPattern pattern,
    boolean buffered,
    long offsetIncrement,
    double minRateRead,
    double minRateWrite,
    long rateCycleNs,
    ReportOptions report,
    CpuList numaCpuNodes,
    FioJobControl control) {

  /** Null checks and an unmodifiable, order-keeping copy of the options. */
  public JobSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(rw, "rw");
    Objects.requireNonNull(ioengine, "ioengine");
    Objects.requireNonNull(rateProcess, "rateProcess");
    Objects.requireNonNull(think, "think");
    Objects.requireNonNull(cpusAllowed, "cpusAllowed");
    Objects.requireNonNull(cpusAllowedPolicy, "cpusAllowedPolicy");
    Objects.requireNonNull(percentiles, "percentiles");
    Objects.requireNonNull(verify, "verify");
    Objects.requireNonNull(control, "control");
    description = description == null ? "" : description;
    filename = filename == null ? "" : filename;
    directory = directory == null ? "" : directory;
    explicitOptions = Collections.unmodifiableMap(new LinkedHashMap<>(explicitOptions));
  }

  /**
   * The share of requests that are reads: 1 or 0 for pure modes, {@code rwmixRead/100} for mixed.
   */
  public double readFraction() {
    if (rw.isMixed()) {
      return rwmixRead / 100.0;
    }
    return rw.reads() ? 1.0 : 0.0;
  }

  /** Random offsets ({@code randread}, {@code randwrite}, {@code randrw}). */
  public boolean isRandom() {
    return rw.isRandom();
  }

  /**
   * Requests in flight per clone: 1 for synchronous engines (fio caps them), else {@code iodepth}.
   */
  public int inFlight() {
    return ioengine.synchronous() ? 1 : iodepth;
  }

  /** Synchronous engines issue foreground requests; asynchronous ones background requests. */
  public boolean isForeground() {
    return ioengine.synchronous();
  }

  /** The block size for a direction; trim is not modelled. */
  public long blockSize(Direction direction) {
    return switch (direction) {
      case READ -> blockSizeRead;
      case WRITE -> blockSizeWrite;
      case TRIM -> throw new IllegalArgumentException("trim is not modelled");
    };
  }

  /**
   * The size of the file the job works on: {@code filesize}, or {@code offset + size} when unset.
   */
  public long effectiveFileSize() {
    return fileSize > 0 ? fileSize : offset + size;
  }

  /**
   * Bytes of the region I/O goes to, starting at {@link #offset()}: {@code size}, capped by the
   * file.
   */
  public long ioRegionBytes() {
    if (pattern.files() > 1) {
      return pattern.fileBytes() * pattern.files(); // the files, back to back
    }
    return Math.min(size, effectiveFileSize() - offset);
  }

  /** Rate cap for a direction, 0 for none. */
  public double rateIops(Direction direction) {
    return direction == Direction.READ ? rateIopsRead : rateIopsWrite;
  }

  /**
   * What the metrics reports need to know about one clone of this job.
   *
   * @param pid the number fio prints as the clone's pid (mqroute uses the clone's global index)
   */
  public JobInfo jobInfo(int pid) {
    return new JobInfo(
        name,
        control.fioGroup(), // fio reports by td->groupid, which new_group also advances
        pid,
        description,
        explicitOptions,
        percentiles,
        inFlight(),
        groupReporting,
        kbBase,
        report);
  }
}
