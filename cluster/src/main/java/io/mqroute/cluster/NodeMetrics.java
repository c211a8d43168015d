package io.mqroute.cluster;

import io.mqroute.protocol.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Extension;
import org.apache.pekko.actor.typed.ExtensionId;

/**
 * What one node has done, for {@code /status} and {@code /metrics}: written by the node's actors
 * (router and queues) on their own threads, read by the management HTTP routes on others.
 * Everything is a counter, a gauge or an HdrHistogram {@link Recorder}, so writers never lock and
 * never wait for a reader.
 */
public final class NodeMetrics implements Extension {
  /** One per ActorSystem. */
  public static final ExtensionId<NodeMetrics> ID =
      new ExtensionId<>() {
        @Override
        public NodeMetrics createExtension(ActorSystem<?> system) {
          return new NodeMetrics();
        }
      };

  public static NodeMetrics get(ActorSystem<?> system) {
    return ID.apply(system);
  }

  /**
   * Depth of one queue as this node sees it: sent to the queue (on its ring) and waiting for room.
   */
  public static final class QueueGauge {
    private final String name;
    private volatile int inFlight;
    private volatile int waiting;
    private volatile boolean suspected;

    QueueGauge(String name) {
      this.name = name;
    }

    public String name() {
      return name;
    }

    public int inFlight() {
      return inFlight;
    }

    public int waiting() {
      return waiting;
    }

    /** Called by the one actor that owns the queue's counts. */
    public void set(int inFlight, int waiting) {
      this.inFlight = inFlight;
      this.waiting = waiting;
    }

    /** A host's queue that fell silent and is out of the router's masks (see RemoteQueue). */
    public boolean suspected() {
      return suspected;
    }

    public void setSuspected(boolean suspected) {
      this.suspected = suspected;
    }
  }

  /** A copy of the latency distribution so far, in nanoseconds. */
  public record LatencySnapshot(
      long count, double meanNanos, long p50, long p90, long p99, long p999, long max) {}

  private final LongAdder requests = new LongAdder();
  private final LongAdder[] byStatus = new LongAdder[Status.values().length];
  private final Recorder latency = new Recorder(3);
  // readers fold the recorder's intervals into this; guarded by itself
  private final Histogram total = new Histogram(3);
  private final Map<String, QueueGauge> queues = new ConcurrentSkipListMap<>();
  private volatile int inFlight;
  // messages refused as forged or from strangers, by reason (see dropped)
  private final Map<String, LongAdder> dropped = new ConcurrentSkipListMap<>();
  // failure handling at request level, by kind (see event)
  private final Map<String, LongAdder> events = new ConcurrentSkipListMap<>();
  // how long a host's queue with requests outstanding went without answering, per answer
  private final Recorder silence = new Recorder(2);
  private final Histogram silenceTotal = new Histogram(2);

  // inbound connections by port ("artery", "nbd"): counters by outcome and gauges by state
  private final Map<String, Supplier<Map<String, Long>>> inboundCounters =
      new ConcurrentSkipListMap<>();
  private final Map<String, Supplier<Map<String, Long>>> inboundGauges =
      new ConcurrentSkipListMap<>();

  private NodeMetrics() {
    for (int i = 0; i < byStatus.length; i++) {
      byStatus[i] = new LongAdder();
    }
  }

  /** One request ended here with {@code status} after {@code latencyNanos} on this node. */
  public void completed(Status status, long latencyNanos) {
    requests.increment();
    byStatus[status.ordinal()].increment();
    if (status == Status.OK) {
      latency.recordValue(Math.max(0, latencyNanos));
    }
  }

  /**
   * One message refused because it could not be genuine (e.g. a completion from the wrong queue) or
   * came from outside the cluster; {@code reason} is a short fixed key, never text from the
   * message.
   */
  public void dropped(String reason) {
    dropped.computeIfAbsent(reason, k -> new LongAdder()).increment();
  }

  /**
   * One event of the request-level failure handling (a queue suspected or reinstated, a request
   * fenced, a completion that came after its request had been ended); {@code kind} is a fixed key.
   */
  public void event(String kind) {
    events.computeIfAbsent(kind, k -> new LongAdder()).increment();
  }

  /**
   * What a listener of this node reports about its inbound connections: {@code counters} by outcome
   * (accepted, refused, timed out, ...) and {@code gauges} by state (open, pending), read when
   * /metrics is.
   */
  public void inbound(
      String port, Supplier<Map<String, Long>> counters, Supplier<Map<String, Long>> gauges) {
    inboundCounters.put(port, counters);
    inboundGauges.put(port, gauges);
  }

  private volatile Supplier<Map<String, Object>> sweep;

  /**
   * What a sweep worker (its slots, runs running, done and failed) or a sweep's client (the runs
   * across the cluster, per worker) reports, read when /status is.
   */
  public void sweep(Supplier<Map<String, Object>> report) {
    this.sweep = report;
  }

  /** The sweep's report, empty on a node that has none. */
  public Map<String, Object> sweep() {
    Supplier<Map<String, Object>> s = sweep;
    return s == null ? Map.of() : s.get();
  }

  /** Inbound connection counters: port, then outcome. */
  public Map<String, Map<String, Long>> inboundCounters() {
    return read(inboundCounters);
  }

  /** Inbound connection gauges: port, then state. */
  public Map<String, Map<String, Long>> inboundGauges() {
    return read(inboundGauges);
  }

  private static Map<String, Map<String, Long>> read(Map<String, Supplier<Map<String, Long>>> m) {
    Map<String, Map<String, Long>> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, new TreeMap<>(v.get())));
    return out;
  }

  /** Events by kind, so far. */
  public Map<String, Long> events() {
    return sums(events);
  }

  private static Map<String, Long> sums(Map<String, LongAdder> m) {
    Map<String, Long> out = new TreeMap<>();
    m.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /**
   * A host's queue answered after {@code nanos} without an answer while it had requests
   * outstanding: what {@code suspect-after} must stay above on a healthy queue.
   */
  public void silence(long nanos) {
    silence.recordValue(Math.max(0, nanos));
  }

  /** The silences so far (p50 .. max, in nanoseconds). */
  public LatencySnapshot silences() {
    return snapshot(silence, silenceTotal);
  }

  /** Dropped messages by reason, so far. */
  public Map<String, Long> dropped() {
    return sums(dropped);
  }

  /** The gauge of a queue, created on first use. */
  public QueueGauge queue(String name) {
    return queues.computeIfAbsent(name, QueueGauge::new);
  }

  /** Drops a departed queue's gauge. */
  public void removeQueue(String name) {
    queues.remove(name);
  }

  public List<QueueGauge> queues() {
    return new ArrayList<>(queues.values());
  }

  /** Requests in flight on this node (a host router's count, or a device's queues together). */
  public void setInFlight(int n) {
    inFlight = n;
  }

  public int inFlight() {
    return inFlight;
  }

  public long requests() {
    return requests.sum();
  }

  public long count(Status status) {
    return byStatus[status.ordinal()].sum();
  }

  public long errors() {
    return requests.sum() - count(Status.OK);
  }

  public LatencySnapshot latency() {
    return snapshot(latency, total);
  }

  /**
   * What {@code r} recorded since the last read, folded into {@code h}: the distribution so far.
   */
  private static LatencySnapshot snapshot(Recorder r, Histogram h) {
    synchronized (h) {
      h.add(r.getIntervalHistogram());
      return new LatencySnapshot(
          h.getTotalCount(),
          h.getMean(),
          h.getValueAtPercentile(50),
          h.getValueAtPercentile(90),
          h.getValueAtPercentile(99),
          h.getValueAtPercentile(99.9),
          h.getMaxValue());
    }
  }
}
