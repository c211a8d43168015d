package io.mqroute.actors.machine;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The heap one machine run needs, estimated before it runs, so that a machine within the parser's
 * limits (64 nodes x 1024 cores, a ring of 1,048,576 slots) is refused with one line instead of
 * running out of memory with a trace.
 *
 * <p>The constants are per object, measured (retained heap after a full GC, the machine built and
 * running for a while) by {@code MemoryEstimateCalibrationTest}, which also checks that the
 * estimate stays an upper bound within 5x (measured 1.1x to 3.0x) on machines where one kind of
 * object dominates:
 *
 * <ul>
 *   <li>{@link #RUN_BYTES}: the virtual-time ActorSystem of the run, its dispatchers and the
 *       machine actor (measured about 1 MB once the first system has loaded Pekko's classes and
 *       caches);
 *   <li>{@link #CPU_BYTES} per CPU: the Core actor, its mailbox and CoreModel (measured 2 KB);
 *   <li>{@link #QUEUE_BYTES} per queue: the RequestQueue and Poller actors, the ring's Pekko Stream
 *       (materializer, stages) and RingQueue (measured 8.5 KB);
 *   <li>nothing per ring slot: the queue's ring is fused with it ({@link RingStage#fused}), a count
 *       of held slots without a buffer (before issue #18 a stream stage's buffers held one
 *       reference per slot, 4-8 B; {@link #RING_SLOT_BYTES} is that cost, for a {@link
 *       RingStage#source});
 *   <li>{@link #JOB_BYTES} per job clone: the Job actor, its JobStats (latency, depth and errno
 *       buckets) and offset generators (measured 6.5 KB);
 *   <li>{@link #IN_FLIGHT_BYTES} per request a job keeps in flight (iodepth): the Request, the
 *       messages and ring or overflow entries it lives in, the job's slot arrays (measured 100 B on
 *       an overflow list, 150 B on a ring);
 *   <li>{@link #HISTOGRAM_BYTES} per latency series a job records: an HdrHistogram from 1 ns to 1
 *       hour at 3 significant digits is 33 x 1024 longs, allocated at the first sample with a
 *       buffer of 256 samples that reach it in batches (measured 270 KB + 2 KB). A job records clat
 *       and lat per direction it does, and slat too with an async engine; group_reporting merges
 *       one more set per stonewall group. The histograms stay with the result after the run: {@link
 *       #resultBytes}.
 * </ul>
 *
 * @param runBytes the heap the run needs while it runs (its result included)
 * @param resultBytes what its result keeps after the run (the jobs' statistics)
 * @param parts what the run is made of, largest first, each with the key that makes it big
 */
public record MemoryEstimate(long runBytes, long resultBytes, List<Part> parts) {
  public static final long RUN_BYTES = 16L << 20;
  public static final long CPU_BYTES = 3L << 10;
  public static final long QUEUE_BYTES = 12L << 10;
  public static final long RING_SLOT_BYTES = 8;
  public static final long JOB_BYTES = 12L << 10;
  public static final long IN_FLIGHT_BYTES = 160;
  public static final long HISTOGRAM_BYTES = 280L << 10;

  /**
   * Of {@link Runtime#maxMemory()}, the share runs may plan on: the garbage collector needs the
   * rest as headroom.
   */
  public static final double HEAP_SHARE = 0.75;

  /**
   * One component of a run.
   *
   * @param key the configuration key that makes it big ({@code queues.ring-size}, fio's {@code
   *     numjobs}), for the message
   * @param what the count behind it, in words
   */
  public record Part(String key, String what, long bytes) {}

  public MemoryEstimate {
    parts = parts.stream().sorted(Comparator.comparingLong(Part::bytes).reversed()).toList();
  }

  /** The machine alone (CPUs, queues, rings), before any job is known. */
  public static MemoryEstimate of(MachineSpec spec) {
    return of(spec, List.of());
  }

  /** A run of {@code plans} on {@code spec}. */
  public static MemoryEstimate of(MachineSpec spec, List<JobPlan> plans) {
    List<Part> parts = new ArrayList<>();
    long cpus = spec.topology().cpuCount();
    MachineSpec.Queues q = spec.queues();
    long queues = q.count();
    boolean perCpu = q.kind() == QueueKind.PER_CPU;
    parts.add(
        new Part(
            "machine.cores-per-node",
            String.format(Locale.ROOT, "%,d CPUs (numa-nodes x cores-per-node)", cpus),
            cpus * CPU_BYTES));
    parts.add(
        new Part(
            perCpu ? "machine.cores-per-node" : "queues.count",
            String.format(Locale.ROOT, "%,d queues", queues),
            queues * QUEUE_BYTES));
    // no part per ring slot: the model's queue fuses its ring (RingStage.fused), a count of held
    // slots
    // with no buffer; what sits on a ring is counted as in flight
    long inFlight = 0;
    long series = 0;
    Map<Integer, Integer> groupSeries = new TreeMap<>();
    for (JobPlan p : plans) {
      inFlight += p.inFlight();
      int s = (p.readFraction() > 0 ? 1 : 0) + (p.readFraction() < 1 ? 1 : 0);
      s *= p.foreground() ? 2 : 3; // clat and lat; slat only where it is measured (async engines)
      series += s;
      groupSeries.merge(p.group(), 3 * 2, Math::max); // the merged group_reporting set
    }
    series += groupSeries.values().stream().mapToLong(Integer::longValue).sum();
    long histograms = multiply(series, HISTOGRAM_BYTES);
    long jobs = plans.size() * JOB_BYTES;
    if (!plans.isEmpty()) {
      parts.add(
          new Part("numjobs", String.format(Locale.ROOT, "%,d job clones", plans.size()), jobs));
      parts.add(
          new Part(
              "iodepth",
              String.format(Locale.ROOT, "%,d requests in flight (iodepth x job clones)", inFlight),
              multiply(inFlight, IN_FLIGHT_BYTES)));
      parts.add(
          new Part(
              "numjobs",
              String.format(
                  Locale.ROOT, "%,d latency histograms (per job clone and direction)", series),
              histograms));
    }
    long run = RUN_BYTES;
    for (Part p : parts) {
      run = add(run, p.bytes());
    }
    return new MemoryEstimate(run, add(jobs, histograms), parts);
  }

  /** The heap runs may plan on in this JVM: {@link #HEAP_SHARE} of {@link Runtime#maxMemory()}. */
  public static long budget() {
    return (long) (Runtime.getRuntime().maxMemory() * HEAP_SHARE);
  }

  /** Whether one such run fits {@link #budget()}. */
  public boolean fits() {
    return runBytes <= budget();
  }

  /** The part that makes the run biggest. */
  public Part largest() {
    return parts.get(0);
  }

  /**
   * One clause for a refusal: {@code needs about 1.0 TiB of heap, more than the 1.5 GiB this JVM
   * can spare (3/4 of its maximum heap of 2.0 GiB): 65,536 queues x 1,048,576 ring slots 640.0 GiB
   * (queues.ring-size), ...}, the parts of at least 1% of the whole.
   */
  public String describe() {
    List<String> big = new ArrayList<>();
    for (Part p : parts) {
      if (p.bytes() * 100 >= runBytes || big.isEmpty()) {
        big.add(p.what() + " " + bytes(p.bytes()) + " (" + p.key() + ")");
      }
    }
    return "needs about "
        + bytes(runBytes)
        + " of heap, more than the "
        + bytes(budget())
        + " this JVM can spare (3/4 of its maximum heap of "
        + bytes(Runtime.getRuntime().maxMemory())
        + "): "
        + String.join(", ", big)
        + "; make them smaller, or give Java more memory (-Xmx, MQROUTE_JAVA_OPTS)";
  }

  /** {@code 1.5 GiB}, {@code 640.0 KiB}. */
  public static String bytes(long b) {
    String[] units = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = b;
    int u = 0;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return u == 0 ? b + " B" : String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  /**
   * The slots a ring stream stage's buffers allocate ({@link RingStage#source}, not the fused ring
   * the queue uses): the ring size rounded up to a power of two.
   */
  static long ringSlots(int ringSize) {
    return ringSize <= 1 ? 1 : Long.highestOneBit((long) ringSize - 1) << 1;
  }

  private static long multiply(long a, long b) {
    return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
  }

  private static long add(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }
}
