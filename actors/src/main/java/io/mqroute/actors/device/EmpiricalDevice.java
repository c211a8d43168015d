package io.mqroute.actors.device;

import io.mqroute.config.BoundedFiles;
import io.mqroute.protocol.Op;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Service times drawn uniformly from measured samples, so a real device's distribution, tail
 * included, can drive the model. The file is either one nanosecond value per line, or an fio
 * latency log ({@code write_lat_log}: lines {@code time (ms), latency (ns), direction, block size[,
 * offset[, priority]]}), whose second column is used.
 */
public final class EmpiricalDevice implements StatelessDevice {
  /** A sample file larger than this is refused: it is a distribution, not a trace. */
  public static final long MAX_FILE_BYTES = 64L << 20;

  private final long[] samples;
  private final String source;

  public EmpiricalDevice(long[] samples, String source) {
    if (samples.length == 0) {
      throw new IllegalArgumentException(source + ": no samples");
    }
    this.samples = samples.clone();
    this.source = source;
  }

  /**
   * Reads one non-negative integer (ns) per line, or the latency column of an fio log (two or more
   * comma-separated fields: the second); every line must have the same form. '#' starts a comment.
   */
  public static EmpiricalDevice load(Path file) {
    try {
      // a regular file only: /dev/zero reports size 0 and would be read for ever
      List<String> lines = BoundedFiles.readString(file, MAX_FILE_BYTES).lines().toList();
      long[] out = new long[lines.size()];
      int n = 0;
      Boolean fioLog = null; // decided by the first line with a value
      for (int i = 0; i < lines.size(); i++) {
        String s = lines.get(i).strip();
        int hash = s.indexOf('#');
        if (hash >= 0) {
          s = s.substring(0, hash).strip();
        }
        if (s.isEmpty()) {
          continue;
        }
        String[] fields = s.split(",", -1);
        boolean log = fields.length >= 2;
        if (fioLog == null) {
          fioLog = log;
        } else if (fioLog != log) {
          throw new IllegalArgumentException(
              file
                  + ":"
                  + (i + 1)
                  + ": expected "
                  + (fioLog
                      ? "an fio log line (time, latency ns, direction, block size)"
                      : "one number of nanoseconds")
                  + " like the lines before, got \""
                  + s
                  + "\"");
        }
        s = (log ? fields[1] : fields[0]).strip();
        try {
          long v = Long.parseLong(s);
          if (v < 0) {
            throw new NumberFormatException();
          }
          out[n++] = v;
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              file
                  + ":"
                  + (i + 1)
                  + ": expected a non-negative number of nanoseconds, got \""
                  + s
                  + "\"");
        }
      }
      return new EmpiricalDevice(Arrays.copyOf(out, n), file.toString());
    } catch (BoundedFiles.Refused e) {
      throw new IllegalArgumentException(file + ": " + e.getMessage());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
    }
  }

  public int sampleCount() {
    return samples.length;
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return samples[rnd.nextInt(samples.length)];
  }

  @Override
  public String spec() {
    return "empirical(" + source + ")";
  }
}
