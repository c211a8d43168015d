package io.mqroute.actors.machine;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.random.RandomGenerator;

/**
 * fio's {@code random_distribution}: which block a random I/O goes to. {@code random} (uniform),
 * {@code zipf:theta}, {@code pareto:h} and {@code normal:stddev%} follow fio's lib/zipf.c and
 * lib/gauss.c (including their scattering of the hot blocks over the file with {@code __hash_u64}
 * and a random offset, so the hot set is not the file's start); {@code zoned} and {@code zoned_abs}
 * give each zone (a share of the region, or an absolute size) a share of the accesses, uniform
 * within it (fio's {@code __get_next_rand_offset_zoned}).
 *
 * <p>Every draw uses StrictMath, so a seed gives the same offsets in every JVM. The model's latency
 * devices do not look at offsets; the {@code hdd} device and the cluster's file backend do.
 * Immutable; {@link #sampler} builds the per-job state.
 */
public final class OffsetDistribution {

  /** The kinds fio has. */
  public enum Kind {
    RANDOM,
    ZIPF,
    PARETO,
    NORMAL,
    ZONED,
    ZONED_ABS,
    SEQUENCE
  }

  /** fio's FIO_SEQ_MAX: the most elements a sequence may have. */
  public static final int SEQUENCE_MAX = 64;

  /**
   * One zone of {@code zoned} / {@code zoned_abs}.
   *
   * @param accessPercent share of the I/Os that go to the zone
   * @param size share of the region in percent ({@code zoned}) or bytes ({@code zoned_abs})
   */
  public record Zone(double accessPercent, double size) {}

  /** fio computes zeta(n) over at most this many ranks (ZIPF_MAX_GEN). */
  static final long ZIPF_MAX_GEN = 10_000_000L;

  /** zeta(n, theta) by "n:theta": up to 10^7 terms, the same for every clone of a job. */
  private static final Map<String, Double> ZETA = new ConcurrentHashMap<>();

  private static final long GOLDEN_RATIO_64 = 0x61C8864680B583EBL;

  public static final OffsetDistribution UNIFORM =
      new OffsetDistribution(Kind.RANDOM, 0, List.of(), "random");

  private final Kind kind;
  private final double parameter;
  private final List<Zone> zones;
  private final String text;

  /** {@code sequence}: the block indices, and whether the base advances each cycle. */
  private final long[] sequence;

  private final boolean stride;

  private OffsetDistribution(Kind kind, double parameter, List<Zone> zones, String text) {
    this(kind, parameter, zones, text, new long[0], false);
  }

  private OffsetDistribution(
      Kind kind, double parameter, List<Zone> zones, String text, long[] sequence, boolean stride) {
    this.kind = kind;
    this.parameter = parameter;
    this.zones = List.copyOf(zones);
    this.text = text;
    this.sequence = sequence.clone();
    this.stride = stride;
  }

  /**
   * {@code sequence:b0,b1,...}: the I/O numbered n goes to block {@code b[n % len]}, plus {@code (n
   * / len) * len} with {@code random_sequence_stride} (fio's {@code
   * __get_next_rand_offset_sequence}); no random draw. A block past the region ends the job's I/O,
   * as fio's failing offset does.
   */
  public static OffsetDistribution sequence(long[] blocks, boolean stride) {
    if (blocks.length == 0 || blocks.length > SEQUENCE_MAX) {
      throw new IllegalArgumentException(
          "a sequence has 1 to " + SEQUENCE_MAX + " elements, not " + blocks.length);
    }
    StringBuilder t = new StringBuilder("sequence:");
    for (int i = 0; i < blocks.length; i++) {
      if (blocks[i] < 0) {
        throw new IllegalArgumentException("sequence elements are block numbers >= 0");
      }
      t.append(i == 0 ? "" : ",").append(blocks[i]);
    }
    return new OffsetDistribution(Kind.SEQUENCE, 0, List.of(), t.toString(), blocks, stride);
  }

  /** The same sequence with fio's {@code random_sequence_stride} set or not. */
  public OffsetDistribution withStride(boolean on) {
    return kind == Kind.SEQUENCE
        ? new OffsetDistribution(kind, parameter, zones, text, sequence, on)
        : this;
  }

  /** The largest block a {@code sequence} names in its first cycle, -1 for other kinds. */
  public long largestSequenceBlock() {
    long max = -1;
    for (long b : sequence) {
      max = Math.max(max, b);
    }
    return max;
  }

  /** {@code zipf:theta}; fio refuses theta = 1. */
  public static OffsetDistribution zipf(double theta) {
    if (!(theta > 0) || theta == 1.0) {
      throw new IllegalArgumentException("zipf theta must be > 0 and not 1");
    }
    return new OffsetDistribution(Kind.ZIPF, theta, List.of(), "zipf:" + fmt(theta));
  }

  /** {@code pareto:h}, 0 < h < 1. */
  public static OffsetDistribution pareto(double h) {
    if (!(h > 0 && h < 1)) {
      throw new IllegalArgumentException("pareto h must be in (0, 1)");
    }
    return new OffsetDistribution(Kind.PARETO, h, List.of(), "pareto:" + fmt(h));
  }

  /** {@code normal:stddev} (also fio's {@code gauss:}); the deviation in percent of the region. */
  public static OffsetDistribution normal(double stddevPercent) {
    if (!(stddevPercent >= 0 && stddevPercent <= 100)) {
      throw new IllegalArgumentException("normal deviation must be in [0, 100] percent");
    }
    return new OffsetDistribution(
        Kind.NORMAL, stddevPercent, List.of(), "normal:" + fmt(stddevPercent));
  }

  /** {@code zoned:} (sizes in percent) or {@code zoned_abs:} (sizes in bytes). */
  public static OffsetDistribution zoned(List<Zone> zones, boolean absolute, String text) {
    if (zones.isEmpty()) {
      throw new IllegalArgumentException("zoned needs at least one zone");
    }
    double access = 0;
    double size = 0;
    for (Zone z : zones) {
      if (!(z.accessPercent() >= 0) || !(z.size() > 0)) {
        throw new IllegalArgumentException("a zone needs an access share >= 0 and a size > 0");
      }
      access += z.accessPercent();
      size += z.size();
    }
    if (Math.abs(access - 100) > 1e-9) {
      throw new IllegalArgumentException("the zones' access shares must add up to 100");
    }
    if (!absolute && size > 100 + 1e-9) {
      throw new IllegalArgumentException("the zones' sizes must add up to at most 100");
    }
    return new OffsetDistribution(absolute ? Kind.ZONED_ABS : Kind.ZONED, 0, zones, text);
  }

  public Kind kind() {
    return kind;
  }

  @Override
  public String toString() {
    return text;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof OffsetDistribution d
        && d.kind == kind
        && d.parameter == parameter
        && d.zones.equals(zones)
        && Arrays.equals(d.sequence, sequence)
        && d.stride == stride;
  }

  @Override
  public int hashCode() {
    return Objects.hash(kind, parameter, zones, Arrays.hashCode(sequence), stride);
  }

  private static String fmt(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : String.format(Locale.ROOT, "%s", v);
  }

  /** Draws block numbers in [0, blocks) from this distribution; -1: no block is left. */
  interface Sampler {
    long next();
  }

  /**
   * The per-job state for {@code blocks} blocks of {@code blockBytes} each; draws from {@code
   * random} only.
   */
  Sampler sampler(long blocks, long blockBytes, RandomGenerator random) {
    return switch (kind) {
      case RANDOM -> () -> random.nextLong(blocks);
      case ZIPF -> zipfSampler(blocks, random);
      case PARETO -> {
        double pow = StrictMath.log(parameter) / StrictMath.log(1.0 - parameter);
        long off = random.nextLong(blocks);
        yield () ->
            scatter((long) ((blocks - 1) * StrictMath.pow(random.nextDouble(), pow)), off, blocks);
      }
      case NORMAL -> {
        long off = random.nextLong(blocks);
        double sd = parameter / 100.0 * blocks;
        yield () -> {
          // Box-Muller with StrictMath: the same block in every JVM
          double g =
              StrictMath.sqrt(-2.0 * StrictMath.log1p(-random.nextDouble()))
                  * StrictMath.cos(2.0 * StrictMath.PI * random.nextDouble());
          long b = Math.round(blocks / 2.0 + g * sd);
          return scatter(Math.max(0, Math.min(blocks - 1, b)), off, blocks);
        };
      }
      case ZONED, ZONED_ABS -> zonedSampler(blocks, blockBytes, random);
      case SEQUENCE -> {
        long[] n = {0};
        yield () -> {
          long i = n[0]++;
          int len = sequence.length;
          long b = sequence[(int) (i % len)] + (stride ? i / len * len : 0);
          return b < blocks ? b : -1;
        };
      }
    };
  }

  /** Gray et al.'s method, as fio's zipf_next; zeta(n) is summed once per sampler. */
  private Sampler zipfSampler(long n, RandomGenerator random) {
    double theta = parameter;
    long gen = Math.min(n, ZIPF_MAX_GEN);
    double zetan =
        ZETA.computeIfAbsent(
            gen + ":" + theta,
            k -> {
              double sum = 0;
              for (long i = 0; i < gen; i++) {
                sum += StrictMath.pow(1.0 / (i + 1), theta);
              }
              return sum;
            });
    double zeta2 = 1.0 + StrictMath.pow(0.5, theta);
    double alpha = 1.0 / (1.0 - theta);
    double eta = (1.0 - StrictMath.pow(2.0 / n, 1.0 - theta)) / (1.0 - zeta2 / zetan);
    double second = 1.0 + StrictMath.pow(0.5, theta);
    double z = zetan;
    long off = random.nextLong(n);
    return () -> {
      double u = random.nextDouble();
      double uz = u * z;
      long val;
      if (uz < 1.0) {
        val = 1;
      } else if (uz < second) {
        val = 2;
      } else {
        val = 1 + (long) (n * StrictMath.pow(eta * u - eta + 1.0, alpha));
      }
      return scatter(Math.min(val - 1, n - 1), off, n);
    };
  }

  private Sampler zonedSampler(long blocks, long blockBytes, RandomGenerator random) {
    int k = zones.size();
    double[] cumAccess = new double[k];
    long[] first = new long[k];
    long[] count = new long[k];
    double acc = 0;
    long at = 0;
    for (int i = 0; i < k; i++) {
      Zone z = zones.get(i);
      acc += z.accessPercent() / 100.0;
      cumAccess[i] = acc;
      long len =
          kind == Kind.ZONED
              ? Math.round(z.size() / 100.0 * blocks)
              : (long) (z.size() / blockBytes);
      first[i] = Math.min(at, blocks - 1);
      count[i] = Math.max(1, Math.min(len, blocks - first[i]));
      at += len;
    }
    cumAccess[k - 1] = 1.0;
    return () -> {
      double u = random.nextDouble();
      int i = 0;
      while (i < k - 1 && u >= cumAccess[i]) {
        i++;
      }
      return first[i] + random.nextLong(count[i]);
    };
  }

  /** fio's {@code (__hash_u64(val) + rand_off) % nranges}. */
  private static long scatter(long val, long off, long n) {
    return Long.remainderUnsigned(val * GOLDEN_RATIO_64 + off, n);
  }
}
