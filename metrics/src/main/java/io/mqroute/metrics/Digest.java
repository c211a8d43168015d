package io.mqroute.metrics;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A short, stable fingerprint of simulation results: SHA-256 over a canonical byte stream, printed
 * as the first 16 hex digits. The same results give the same digest in any JVM and on any platform
 * because the stream holds only integers, big-endian, and the exact bits of doubles (Java floating
 * point is strict since 17), never {@code toString} output or map iteration order.
 *
 * <p>{@link #of(List)} covers a run's job statistics; callers add their own facts (queue counters,
 * invariant results) with the {@code put} methods. Each {@code put} is self-delimiting (strings
 * carry their length), so different inputs cannot run together into the same stream.
 */
public final class Digest {

  /** Digits in {@link #hex()}: 64 bits, enough to tell runs apart, short enough to read. */
  public static final int HEX_DIGITS = 16;

  private final MessageDigest sha;
  private final byte[] buffer = new byte[8];

  private Digest() {
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform provides SHA-256", e);
    }
  }

  /** An empty digest. */
  public static Digest create() {
    return new Digest();
  }

  /** The digest of a run's job statistics, in the given order. */
  public static String of(List<JobStats> jobs) {
    Digest d = create().putString("mqroute.jobstats.v1").putInt(jobs.size());
    for (JobStats s : jobs) {
      d.putJobStats(s);
    }
    return d.hex();
  }

  /** Adds a 64-bit integer, big-endian. */
  public Digest putLong(long value) {
    for (int i = 7; i >= 0; i--) {
      buffer[i] = (byte) value;
      value >>>= 8;
    }
    sha.update(buffer, 0, 8);
    return this;
  }

  /** Adds a 32-bit integer (as a long, so widths never mix). */
  public Digest putInt(int value) {
    return putLong(value);
  }

  /** Adds the exact bits of a double. */
  public Digest putDouble(double value) {
    return putLong(Double.doubleToLongBits(value));
  }

  /** Adds a string as its UTF-8 length and bytes. */
  public Digest putString(String value) {
    byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
    putLong(bytes.length);
    sha.update(bytes);
    return this;
  }

  /**
   * Adds one job's results: identity, runtime, per direction the counters and the three latency
   * series (exact summary and every non-empty histogram bucket), fsync latencies, the latency
   * buckets, depth samples and errors. Not included: {@link JobStats#ignoredOutsideWindow()} and
   * window start/end (only the runtime, so that shifting a whole run in time keeps its digest).
   */
  public Digest putJobStats(JobStats s) {
    JobInfo info = s.info();
    putString(info.name()).putInt(info.groupId()).putInt(info.pid()).putInt(s.members());
    putLong(s.runtimeNs());
    for (Direction d : Direction.values()) {
      DirectionStats ds = s.direction(d);
      putInt(d.ordinal()).putLong(ds.totalIos()).putLong(ds.ioBytes()).putLong(ds.errors());
      putLatency(ds.slat()).putLatency(ds.clat()).putLatency(ds.lat());
    }
    putLatency(s.sync());
    for (long c : s.latencyBucketCounts()) {
      putLong(c);
    }
    for (long c : s.depthCounts()) {
      putLong(c);
    }
    putLong(s.totalErrors()).putInt(s.firstError());
    s.errorCounts().forEach((errno, n) -> putInt(errno).putLong(n));
    return this;
  }

  private Digest putLatency(LatencyStat stat) {
    putLong(stat.count())
        .putLong(stat.min())
        .putLong(stat.max())
        .putDouble(stat.mean())
        .putDouble(stat.sumSquares())
        .putLong(stat.clampedCount());
    Histogram h = stat.histogramOrNull();
    if (h == null) {
      return putLong(0);
    }
    for (HistogramIterationValue v : h.recordedValues()) {
      putLong(v.getValueIteratedTo()).putLong(v.getCountAtValueIteratedTo());
    }
    return putLong(-1);
  }

  /** The first {@value #HEX_DIGITS} hex digits of the SHA-256 of everything added. */
  public String hex() {
    byte[] full = sha.digest();
    StringBuilder sb = new StringBuilder(HEX_DIGITS);
    for (int i = 0; i < HEX_DIGITS / 2; i++) {
      sb.append(Character.forDigit((full[i] >> 4) & 0xf, 16))
          .append(Character.forDigit(full[i] & 0xf, 16));
    }
    return sb.toString();
  }
}
