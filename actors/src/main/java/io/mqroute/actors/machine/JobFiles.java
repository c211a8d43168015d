package io.mqroute.actors.machine;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The offsets of one job clone in one direction over its {@code nrfiles} files, as fio's io_u.c
 * {@code __get_next_file} picks them: each file has its own walk or draw ({@link OffsetGenerator},
 * as fio keeps {@code last_pos} per file); files open in order, at most {@code openfiles} at a
 * time, and a file is done (and closed, letting the next open) once its bytes have been
 * transferred; {@code file_service_type} picks among the open files that are not done: round robin
 * or a uniform draw every {@code file_service_nr} I/Os, or one file until it is done. When every
 * file is done, all start again (fio's next loop of a time-based job). The files lie back to back
 * in the clone's region. With one file it is that file's generator. Not thread-safe.
 */
final class JobFiles {
  private final OffsetGenerator[] files;
  private final IoPattern.FileService service;
  private final int perFile;
  private final int openLimit;
  private final long fileBytes;
  private final RandomGenerator random;

  /** Bytes transferred per file in the current pass. */
  private final long[] done;

  /** The first file not yet opened in this pass; the open ones are below it and not done. */
  private int nextToOpen;

  private int open;
  private int doneFiles;

  /** The file of the last I/O, -1 before the first. */
  private int current = -1;

  /** I/Os left on the current file before round robin or random picks again. */
  private int left;

  private JobFiles(
      OffsetGenerator[] files,
      IoPattern.FileService service,
      int perFile,
      int openLimit,
      long fileBytes,
      RandomGenerator random) {
    this.files = files;
    this.service = service;
    this.perFile = perFile;
    this.openLimit = openLimit;
    this.fileBytes = fileBytes;
    this.random = random;
    this.done = new long[files.length];
  }

  /**
   * @param random offsets drawn for random jobs, null for sequential ones
   * @param pick where file_service_type=random draws the file from
   * @param wrap see {@link OffsetGenerator#of(long, long, BlockSizes, IoPattern, RandomGenerator,
   *     boolean)}
   */
  static JobFiles of(
      long start,
      long regionBytes,
      BlockSizes sizes,
      IoPattern pattern,
      RandomGenerator random,
      RandomGenerator pick,
      boolean wrap) {
    int n = pattern.files();
    if (n == 1) {
      return new JobFiles(
          new OffsetGenerator[] {
            OffsetGenerator.of(start, regionBytes, sizes, pattern, random, wrap)
          },
          pattern.fileService(),
          1,
          1,
          regionBytes,
          pick);
    }
    OffsetGenerator[] g = new OffsetGenerator[n];
    for (int k = 0; k < n; k++) {
      g[k] =
          OffsetGenerator.of(
              start + k * pattern.fileBytes(), pattern.fileBytes(), sizes, pattern, random, wrap);
    }
    return new JobFiles(
        g,
        pattern.fileService(),
        pattern.fileServiceNr(),
        pattern.openFiles(),
        pattern.fileBytes(),
        pick);
  }

  /** The next offset for an I/O of {@code length} bytes; -1 when the offsets have run out. */
  long next(long length) {
    if (files.length == 1) {
      return files[0].next(length);
    }
    pick();
    long o = files[current].next(length);
    done[current] += length;
    if (done[current] >= fileBytes) { // fio_file_set_done: closed, the next file may open
      doneFiles++;
      open--;
      left = 0;
      if (doneFiles == files.length) {
        Arrays.fill(done, 0);
        doneFiles = 0;
        nextToOpen = 0;
        open = 0;
        current = -1;
      }
    }
    return o;
  }

  private boolean active(int k) {
    return k < nextToOpen && done[k] < fileBytes;
  }

  private void openMore() {
    while (open < openLimit && nextToOpen < files.length) {
      nextToOpen++;
      open++;
    }
  }

  private void pick() {
    openMore();
    if (current >= 0 && active(current)) {
      if (service == IoPattern.FileService.SEQUENTIAL) {
        return;
      }
      if (left > 0) {
        left--;
        return;
      }
    }
    if (service == IoPattern.FileService.RANDOM) {
      // fio's __get_next_fileno_rand: nr_files * (r / (FRAND_MAX + 1.0)), uniform; a file that
      // is not open or is done is passed over, so the draw is uniform over the usable ones
      int usable = 0;
      for (int k = 0; k < nextToOpen; k++) {
        usable += active(k) ? 1 : 0;
      }
      int r = random.nextInt(usable);
      for (int k = 0; k < nextToOpen; k++) {
        if (active(k) && r-- == 0) {
          current = k;
          break;
        }
      }
    } else {
      // get_next_file_rr: the next open file after the last, round the files
      int k = current;
      do {
        k = (k + 1) % files.length;
      } while (!active(k));
      current = k;
    }
    left = perFile - 1;
  }
}
