package io.mqroute.actors.machine;

import java.util.Objects;

/**
 * What a job's I/Os look like beyond one block size and uniform offsets: fio's {@code bssplit} /
 * {@code bsrange} (per direction), {@code random_distribution}, the {@code rw=} offset modifier
 * ({@code rw=randread:8}, {@code rw=read:4k}), {@code blockalign}, {@code io_size} and {@code
 * number_ios}. {@link #SIMPLE} is the plain job: every field at fio's default.
 *
 * @param readSizes read block sizes, null: the plan's {@code bsRead}
 * @param writeSizes write block sizes, null: the plan's {@code bsWrite}
 * @param distribution where random I/Os go
 * @param sequentialSkip sequential jobs: bytes left out after each I/O ({@code rw=read:4k}: a
 *     hole); negative steps back ({@code rw=read:-8k} with 4k blocks reads backwards)
 * @param iosPerRandomOffset random jobs: a new random offset every this many I/Os, sequential in
 *     between ({@code rw=randread:8}); 1 is fio's default
 * @param align random offsets are multiples of this (fio's {@code blockalign}), 0: the smallest
 *     block size
 * @param ioLimitBytes {@code io_size}: bytes to transfer before the job ends (without {@code
 *     time_based}), 0: {@code size} times {@code loops}
 * @param maxIos {@code number_ios}: I/Os before the job ends, 0: no limit
 * @param verify fio's {@code verify=} with {@code do_verify=1}: once the writes of a job that is
 *     not time-based are done and have completed, the job reads back the bytes it wrote,
 *     sequentially over its region (fio's do_verify phase; the model has no data to compare, so
 *     only the reads are modelled)
 * @param zoneBytes {@code zonemode=zbd}: the zone size ({@link Zones}), 0 for no zones
 * @param maxOpenZones {@code max_open_zones} (0: every zone)
 * @param files {@code nrfiles}: the clone's region holds this many files of {@code fileBytes} each,
 *     back to back
 * @param fileBytes the I/O region of one file when {@code files > 1}, else 0
 * @param fileService {@code file_service_type}: which file the next I/O goes to
 * @param fileServiceNr the I/Os to a file before fio picks the next ({@code roundrobin:N}, {@code
 *     random:N}; default 1)
 * @param openFiles {@code openfiles}: at most this many files are open; the next opens when one is
 *     done (1 to {@code files})
 * @param stride {@code zonemode=strided} ({@link Stride}), null without it
 * @param verifyBacklog {@code verify_backlog}: with {@code verify}, read back the oldest writes
 *     every this many ({@link VerifyBacklog}); 0 for none
 * @param verifyBacklogBatch {@code verify_backlog_batch}: writes read back each time, 0 for {@code
 *     verifyBacklog}
 */
public record IoPattern(
    BlockSizes readSizes,
    BlockSizes writeSizes,
    OffsetDistribution distribution,
    long sequentialSkip,
    int iosPerRandomOffset,
    long align,
    long ioLimitBytes,
    long maxIos,
    boolean verify,
    long zoneBytes,
    int maxOpenZones,
    int files,
    long fileBytes,
    FileService fileService,
    int fileServiceNr,
    int openFiles,
    Stride stride,
    int verifyBacklog,
    int verifyBacklogBatch) {

  /** fio's {@code file_service_type} kinds the model runs (the uniform ones). */
  public enum FileService {
    /** Round robin over the files, {@code fileServiceNr} I/Os each (fio's default). */
    ROUNDROBIN,
    /** One file until its bytes are done, then the next. */
    SEQUENTIAL,
    /** A file drawn uniformly every {@code fileServiceNr} I/Os. */
    RANDOM
  }

  /**
   * fio's {@code zonemode=strided} (io_u.c {@code setup_strided_zone_mode}): I/O stays in a zone of
   * {@code rangeBytes} ({@code zonerange}) until {@code sizeBytes} ({@code zonesize}) have been
   * transferred there, then moves {@code rangeBytes + skipBytes} ({@code zoneskip}) on, wrapping to
   * the region's start past its end.
   */
  public record Stride(long sizeBytes, long rangeBytes, long skipBytes) {
    public Stride {
      if (sizeBytes <= 0 || rangeBytes <= 0 || skipBytes < 0) {
        throw new IllegalArgumentException("zonesize and zonerange must be > 0, zoneskip >= 0");
      }
    }
  }

  public static final IoPattern SIMPLE =
      new IoPattern(null, null, OffsetDistribution.UNIFORM, 0, 1, 0, 0, 0, false, 0, 0);

  /** One file, no strided zones. */
  public IoPattern(
      BlockSizes readSizes,
      BlockSizes writeSizes,
      OffsetDistribution distribution,
      long sequentialSkip,
      int iosPerRandomOffset,
      long align,
      long ioLimitBytes,
      long maxIos,
      boolean verify,
      long zoneBytes,
      int maxOpenZones) {
    this(
        readSizes,
        writeSizes,
        distribution,
        sequentialSkip,
        iosPerRandomOffset,
        align,
        ioLimitBytes,
        maxIos,
        verify,
        zoneBytes,
        maxOpenZones,
        1,
        0,
        FileService.ROUNDROBIN,
        1,
        1,
        null,
        0,
        0);
  }

  public IoPattern {
    Objects.requireNonNull(distribution, "distribution");
    Objects.requireNonNull(fileService, "fileService");
    if (zoneBytes < 0
        || maxOpenZones < 0
        || iosPerRandomOffset < 1
        || align < 0
        || ioLimitBytes < 0
        || maxIos < 0
        || verifyBacklog < 0
        || verifyBacklogBatch < 0) {
      throw new IllegalArgumentException(
          "align, io_size and number_ios must be >= 0, ios per random offset >= 1");
    }
    if (files < 1
        || fileServiceNr < 1
        || openFiles < 1
        || openFiles > files
        || (files > 1) != (fileBytes > 0)) {
      throw new IllegalArgumentException(
          "files and file_service_type's count must be >= 1, file bytes > 0 with files > 1");
    }
  }
}
