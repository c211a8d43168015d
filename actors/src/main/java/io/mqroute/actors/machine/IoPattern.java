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
    int maxOpenZones) {

  public static final IoPattern SIMPLE =
      new IoPattern(null, null, OffsetDistribution.UNIFORM, 0, 1, 0, 0, 0, false, 0, 0);

  public IoPattern {
    Objects.requireNonNull(distribution, "distribution");
    if (zoneBytes < 0
        || maxOpenZones < 0
        || iosPerRandomOffset < 1
        || align < 0
        || ioLimitBytes < 0
        || maxIos < 0) {
      throw new IllegalArgumentException(
          "align, io_size and number_ios must be >= 0, ios per random offset >= 1");
    }
  }
}
