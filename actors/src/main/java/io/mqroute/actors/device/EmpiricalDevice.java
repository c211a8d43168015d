package io.mqroute.actors.device;

import io.mqroute.protocol.Op;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * Service times drawn uniformly from measured samples (one nanosecond value per line, e.g. a clat log),
 * so a real device's distribution, tail included, can drive the model.
 */
public final class EmpiricalDevice implements Device {
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

  /** Reads one non-negative integer (ns) per line; '#' starts a comment; a first-column CSV value counts. */
  public static EmpiricalDevice load(Path file) {
    try {
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new IllegalArgumentException(file + ": larger than " + (MAX_FILE_BYTES >> 20) + " MiB");
      }
      List<String> lines = Files.readAllLines(file);
      long[] out = new long[lines.size()];
      int n = 0;
      for (int i = 0; i < lines.size(); i++) {
        String s = lines.get(i).strip();
        int hash = s.indexOf('#');
        if (hash >= 0) {
          s = s.substring(0, hash).strip();
        }
        int comma = s.indexOf(',');
        if (comma >= 0) {
          s = s.substring(0, comma).strip();
        }
        if (s.isEmpty()) {
          continue;
        }
        try {
          long v = Long.parseLong(s);
          if (v < 0) {
            throw new NumberFormatException();
          }
          out[n++] = v;
        } catch (NumberFormatException e) {
          throw new IllegalArgumentException(
              file + ":" + (i + 1) + ": expected a non-negative number of nanoseconds, got \"" + s + "\"");
        }
      }
      return new EmpiricalDevice(Arrays.copyOf(out, n), file.toString());
    } catch (IOException e) {
      throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
    }
  }

  public int sampleCount() {
    return samples.length;
  }

  @Override
  public long serviceNanos(Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return samples[rnd.nextInt(samples.length)];
  }

  @Override
  public String spec() {
    return "empirical(" + source + ")";
  }
}
