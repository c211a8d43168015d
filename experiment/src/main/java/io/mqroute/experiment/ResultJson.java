package io.mqroute.experiment;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.Queueing;
import io.mqroute.actors.machine.Work;
import io.mqroute.metrics.FioJsonReport;
import io.mqroute.metrics.FioNumbers;
import io.mqroute.runtime.RunStats;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

/**
 * The {@code result.json} document of a run (the contract is {@code docs/result-json.md}): the
 * experiment, then per variant its overrides, fio's JSON, a summary over its jobs and mqroute's own
 * counters.
 *
 * <p>Deterministic: the same experiment and seed give the same text, except the two wall-clock
 * fields {@code created} (top level) and {@code variants[].mqroute.wall_seconds}. Everything else
 * comes from virtual time, including fio's {@code timestamp}, which is the variant's virtual end in
 * whole seconds (see {@link #fioTimestamp}). Keys keep their insertion order; floats are written
 * with six decimals like fio's.
 */
public final class ResultJson {
  /** Bumped when a key is renamed or removed (adding keys does not bump it). */
  public static final int FORMAT = 1;

  /** The summary's percentiles, as fio keys them ({@code "99.900000"}). */
  static final double[] SUMMARY_PERCENTILES = {50, 99, 99.9, 99.99};

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final JsonMapper MAPPER =
      JsonMapper.builder().enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN).build();

  private ResultJson() {}

  /**
   * Builds the whole document.
   *
   * @param version mqroute's version ({@code mqroute_version}, and fio's {@code "fio version"})
   * @param created when the run was made, written to the second as {@code created}; the only
   *     top-level wall-clock field
   */
  public static ObjectNode build(ExperimentResult result, String version, Instant created) {
    ExperimentSpec spec = result.spec();
    ObjectNode root = NODES.objectNode();
    root.put("result_format", FORMAT);
    root.put("name", spec.name());
    root.put("description", spec.description());
    root.put("seed", spec.seed());
    root.put("replications", spec.replications());
    root.put("quick", spec.quick());
    ObjectNode sets = root.putObject("set");
    spec.sets().forEach(sets::put);
    root.put("mqroute_version", version);
    root.put("virtual_time", true);
    root.put("created", created.truncatedTo(ChronoUnit.SECONDS).toString());
    root.put("digest", result.digest());
    root.put("healthy", result.healthy());
    root.put("expectations_hold", result.expectationsHold());
    ArrayNode expectations = root.putArray("expectations");
    for (Expectation.Verdict v : result.verdicts()) {
      ObjectNode e = expectations.addObject();
      e.put("expect", v.expectation().text());
      e.put("holds", v.holds());
      putNumber(e, "left", v.left());
      putNumber(e, "right", v.right());
    }
    ArrayNode variants = root.putArray("variants");
    for (VariantResult r : result.variants()) {
      variants.add(variant(r, version));
    }
    return root;
  }

  /** One element of {@code variants[]}. */
  public static ObjectNode variant(VariantResult r, String version) {
    ObjectNode v = NODES.objectNode();
    v.put("name", r.variant().name());
    v.put("id", r.variant().id());
    ObjectNode params = v.putObject("params");
    r.variant().params().forEach(params::put);
    r.variant().point().forEach(params::put); // the sweep values of this run
    ObjectNode point = v.putObject("point");
    r.variant().point().forEach(point::put);
    v.set("fio", fio(r, version));
    ObjectNode summary = summary(r.summary());
    if (r.replicas().size() > 1) {
      summary.put("replications", r.replicas().size());
      summary.set("ci95", ci95(r));
    }
    v.set("summary", summary);
    v.set("mqroute", mqroute(r));
    return v;
  }

  /**
   * fio's {@code --output-format=json} document of one variant, exactly as {@link FioJsonReport}
   * builds it; {@code <variant>.fio.json} is the same document.
   */
  public static ObjectNode fio(VariantResult r, String version) {
    return FioOutput.json(r, version, false);
  }

  /**
   * fio's {@code timestamp} for a variant: its virtual end in whole seconds since the virtual start
   * (0), so fio's time fields stay deterministic; the wall-clock time of the run is {@code
   * created}.
   */
  public static long fioTimestamp(VariantResult r) {
    return r.result().endNanos() / 1_000_000_000L;
  }

  /**
   * The headline numbers over all jobs and both directions, keyed like fio ({@code
   * lat_ns.percentile."99.900000"}). {@code ci95} is null here; a replicated variant's caller
   * replaces it with the 95% confidence half-widths.
   */
  public static ObjectNode summary(Summary s) {
    ObjectNode o = NODES.objectNode();
    o.set("iops", f6(s.iops()));
    o.put("bw_bytes", (long) s.bwBytes());
    o.put("ios", s.ios());
    o.put("errors", s.errors());
    ObjectNode lat = o.putObject("lat_ns");
    lat.set("mean", f6(s.meanNs()));
    ObjectNode p = lat.putObject("percentile");
    long[] values = {s.p50Ns(), s.p99Ns(), s.p999Ns(), s.p9999Ns()};
    for (int i = 0; i < values.length; i++) {
      p.put(percentileKey(SUMMARY_PERCENTILES[i]), values[i]);
    }
    o.putNull("ci95");
    return o;
  }

  /** Half-widths of the 95% confidence intervals, in the units of the summary. */
  private static ObjectNode ci95(VariantResult r) {
    ObjectNode o = NODES.objectNode();
    o.set("iops", f6(r.aggregate(Summary::iops).ci95()));
    o.set("bw_bytes", f6(r.aggregate(Summary::bwBytes).ci95()));
    ObjectNode lat = o.putObject("lat_ns");
    lat.set("mean", f6(r.aggregate(Summary::meanNs).ci95()));
    ObjectNode p = lat.putObject("percentile");
    p.set(percentileKey(50), f6(r.aggregate(x -> x.p50Ns()).ci95()));
    p.set(percentileKey(99), f6(r.aggregate(x -> x.p99Ns()).ci95()));
    p.set(percentileKey(99.9), f6(r.aggregate(x -> x.p999Ns()).ci95()));
    p.set(percentileKey(99.99), f6(r.aggregate(x -> x.p9999Ns()).ci95()));
    return o;
  }

  /** fio's JSON key of a percentile: {@code printf("%f")}, e.g. {@code "99.900000"}. */
  public static String percentileKey(double percentile) {
    return FioNumbers.fixed(percentile, 6);
  }

  /**
   * {@code ok}, {@code STALL} (takes precedence) or {@code VIOLATION}, as in the comparison table.
   */
  public static String status(MachineResult r) {
    return r.stall() != null ? "STALL" : r.violations().isEmpty() ? "ok" : "VIOLATION";
  }

  static ObjectNode mqroute(VariantResult r) {
    MachineResult m = r.result();
    MachineSpec spec = r.variant().machine();
    ObjectNode o = NODES.objectNode();
    o.put("status", r.status());
    o.put("digest", r.digest());
    o.put("virtual_end_ns", m.endNanos());
    // status, stall and violations cover every replication (named when there are several), and so
    // do queueing and little (pooled); router, queues, cores and runtime are the first
    // replication's, like the fio document
    String stall = null;
    ArrayNode violations = NODES.arrayNode();
    for (int i = 0; i < r.all().size(); i++) {
      MachineResult rep = r.all().get(i);
      String prefix = r.all().size() > 1 ? "replication " + (i + 1) + ": " : "";
      if (stall == null && rep.stall() != null) {
        stall = prefix + rep.stall();
      }
      rep.violations().forEach(v -> violations.add(prefix + v));
    }
    o.put("stall", stall); // null when no replication stalled
    o.set("violations", violations);
    o.set("router", router(m.router(), spec));
    ArrayNode queues = o.putArray("queues");
    m.queues().forEach(q -> queues.add(queue(q, spec)));
    ArrayNode queueing = o.putArray("queueing");
    Pooled.queues(r.all()).forEach(q -> queueing.add(queueing(q)));
    ArrayNode cores = o.putArray("cores");
    m.cores().forEach(c -> cores.add(core(c, spec, m.endNanos())));
    ArrayNode little = o.putArray("little");
    Pooled.little(r.all()).forEach(l -> little.add(little(l)));
    o.set("runtime", runtime(r.stats()));
    // Last, so that everything above it is byte-identical between runs of the same seed.
    o.set("wall_seconds", f6(r.wallNanos() / 1e9));
    return o;
  }

  private static ObjectNode router(FlowProtocol.RouterStats s, MachineSpec spec) {
    ObjectNode o = NODES.objectNode();
    o.put("selector", spec.router().selector());
    o.put("routed", s.routed());
    o.put("no_queue", s.noQueue());
    o.put("blocked", s.blocked());
    o.put("max_num_background", s.maxNumBackground());
    o.put("max_active_background", s.maxActive());
    o.put("max_background", spec.router().maxBackground());
    o.put("admission_breaches", s.admissionBreaches());
    ArrayNode perQueue = o.putArray("routed_per_queue");
    if (s.routedPerQueue() != null) {
      for (long n : s.routedPerQueue()) {
        perQueue.add(n);
      }
    }
    return o;
  }

  private static ObjectNode queue(FlowProtocol.QueueStats q, MachineSpec spec) {
    ObjectNode o = NODES.objectNode();
    o.put("queue", q.queue());
    o.put("home_cpu", q.homeCpu());
    o.put("ring_size", spec.queues().ringSize());
    o.put("accepted", q.accepted());
    o.put("completed", q.completed());
    o.put("max_occupancy", q.maxOccupancy());
    o.put("overflow_waits", q.overflowWaits());
    o.put("overflow_ns", q.overflowNanos());
    o.put("delayed_retries", q.delayedRetries());
    o.put("ring_attempts", q.ringAttempts());
    o.put("enomem", q.enomem());
    o.put("on_ring", q.onRing());
    o.put("queued", q.queued());
    ArrayNode violations = o.putArray("violations");
    q.violations().forEach(violations::add);
    ArrayNode stuck = o.putArray("stuck");
    q.stuck().forEach(stuck::add);
    return o;
  }

  private static ObjectNode core(CoreProtocol.CoreStats c, MachineSpec spec, long endNanos) {
    ObjectNode o = NODES.objectNode();
    o.put("cpu", c.cpu());
    o.put("busy_ns", c.busyNanos());
    o.set("utilization", f6(endNanos == 0 ? 0.0 : c.busyNanos() / (double) endNanos));
    o.put("items", c.items());
    o.put("wakeups", c.wakeups());
    ObjectNode exits = o.putObject("cstate_exits");
    for (int i = 0; i < c.cstateExits().length; i++) {
      String name = i < spec.cstates().size() ? spec.cstates().get(i).name() : "C?" + i;
      exits.put(name, c.cstateExits()[i]);
    }
    putByKind(o.putObject("items_by_kind"), c.byKind());
    // busy_ns = the work's full-speed cost by kind + switches + C-state exits + the stretch of a
    // lower frequency
    putByKind(o.putObject("work_ns_by_kind"), c.nanosByKind());
    o.put("switch_ns", c.switchNanos());
    o.put("sleep_wake_ns", c.sleepWakeNanos());
    o.put("cstate_exit_ns", c.exitNanos());
    o.put("frequency_stretch_ns", c.stretchNanos());
    return o;
  }

  /** One number per {@link Work} kind, keyed by its lower-case name. */
  private static void putByKind(ObjectNode o, long[] values) {
    Work[] kinds = Work.values();
    for (int i = 0; i < values.length && i < kinds.length; i++) {
      o.put(kinds[i].name().toLowerCase(Locale.ROOT), values[i]);
    }
  }

  private static ObjectNode little(Pooled.LittleAcross a) {
    LittlesLaw l = a.pooled();
    ObjectNode o = NODES.objectNode();
    o.put("job", a.job());
    if (a.evaluated() > 0) {
      o.put("holds", a.holds());
    } else {
      o.putNull("holds"); // the job did not end (a stall): nothing to check
    }
    o.put("replications", a.evaluated());
    o.put("in_flight_area", l.inFlightArea());
    o.set("latency_sum_ns", f6(l.latencySum()));
    o.put("edge_area", l.edgeArea());
    o.put("requests", l.windowRequests());
    o.put("span_ns", l.spanNanos());
    o.set("mean_in_flight", f6(l.meanInFlight()));
    o.set("lambda_w", f6(l.lambdaW()));
    o.set("edge_in_flight", f6(l.edgeInFlight()));
    o.set("rate_per_second", f6(l.ratePerSecond()));
    o.set("mean_latency_ns", f6(l.meanLatencyNanos()));
    return o;
  }

  private static ObjectNode queueing(Pooled.QueueAcross a) {
    Queueing q = a.pooled();
    ObjectNode o = NODES.objectNode();
    o.put("queue", a.queue());
    o.put("servers", q.servers());
    o.put("replications", a.replications());
    o.put("requests", q.started());
    o.put("span_ns", q.spanNanos());
    putNumber(o, "p_wait", q.pWait());
    putNumber(o, "mean_wait_ns", q.meanWaitNanos());
    putNumber(o, "busy_fraction", q.busyFraction());
    putNumber(o, "mean_waiting", q.meanWaiting());
    putNumber(o, "mean_in_queue", q.meanInQueue());
    if (a.replications() < 2) {
      o.putNull("ci95");
    } else {
      ObjectNode ci = o.putObject("ci95");
      putNumber(ci, "p_wait", a.pWait().ci95());
      putNumber(ci, "busy_fraction", a.busy().ci95());
      putNumber(ci, "mean_waiting", a.waiting().ci95());
      putNumber(ci, "mean_in_queue", a.inQueue().ci95());
    }
    return o;
  }

  private static ObjectNode runtime(RunStats s) {
    ObjectNode o = NODES.objectNode();
    if (s == null) {
      return o;
    }
    // RunStats.wallNanos is left out on purpose: it is the one field of RunStats that is not
    // deterministic.
    o.put("stop_reason", s.stopReason().name().toLowerCase(Locale.ROOT));
    o.put("tasks_run", s.tasksRun());
    o.put("timers_fired", s.timersFired());
    o.put("delivered_runs", s.deliveredRuns());
    return o;
  }

  /**
   * The document as pretty-printed text ending in a newline (BigDecimals plain, like fio's JSON).
   */
  public static String render(JsonNode doc) {
    try {
      return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(doc) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A side of a band; JSON has no infinity or NaN, so a side that is not a finite number is null.
   */
  private static void putNumber(ObjectNode o, String key, double value) {
    if (Double.isFinite(value)) {
      o.set(key, f6(value));
    } else {
      o.putNull(key);
    }
  }

  /** A float as fio writes it: six decimals, exact in the JSON text. */
  private static DecimalNode f6(double value) {
    double v = Double.isFinite(value) ? value : 0.0;
    return DecimalNode.valueOf(new BigDecimal(FioNumbers.fixed(v, 6)));
  }
}
