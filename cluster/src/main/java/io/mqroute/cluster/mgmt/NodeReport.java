package io.mqroute.cluster.mgmt;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.mqroute.cluster.NodeMetrics;
import io.mqroute.protocol.Status;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bodies of {@code /status} (JSON) and {@code /metrics} (Prometheus text format 0.0.4) from a
 * node's {@link NodeMetrics} and its view of the membership; pure functions, so they are tested
 * without HTTP.
 */
public final class NodeReport {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One cluster member as this node sees it. */
  public record Member(String address, String status, List<String> roles, boolean reachable) {}

  private NodeReport() {}

  /**
   * {@code /status}: this node, the members, the queues with their depths, requests in flight and
   * totals.
   */
  public static String statusJson(
      String self, List<String> roles, List<Member> members, NodeMetrics m) {
    ObjectNode root = JSON.createObjectNode();
    root.put("self", self);
    root.set("roles", JSON.valueToTree(roles));
    ArrayNode nodes = root.putArray("nodes");
    for (Member mb : members) {
      ObjectNode n = nodes.addObject();
      n.put("address", mb.address());
      n.put("status", mb.status());
      n.set("roles", JSON.valueToTree(mb.roles()));
      n.put("reachable", mb.reachable());
    }
    ArrayNode queues = root.putArray("queues");
    int depthSum = 0;
    for (NodeMetrics.QueueGauge g : m.queues()) {
      ObjectNode q = queues.addObject();
      q.put("queue", g.name());
      q.put("depth", g.inFlight() + g.waiting());
      q.put("in_flight", g.inFlight());
      q.put("waiting", g.waiting());
      if (g.suspected()) {
        q.put("suspected", true);
      }
      depthSum += g.inFlight();
    }
    // a host counts its router's requests; a device node the requests on its queues' rings
    root.put("in_flight", roles.contains("host") ? m.inFlight() : depthSum);
    root.put("requests", m.requests());
    root.put("errors", m.errors());
    ObjectNode byStatus = root.putObject("by_status");
    for (Status s : Status.values()) {
      long n = m.count(s);
      if (n > 0) {
        byStatus.put(s.name(), n);
      }
    }
    // forged or stranger messages refused: a non-zero count is worth a look
    root.set("dropped", JSON.valueToTree(m.dropped()));
    // queues suspected and reinstated, requests fenced, completions after their request ended
    root.set("events", JSON.valueToTree(m.events()));
    // the guard in front of Artery, malformed messages, the NBD server: refusals by kind
    root.set("inbound", JSON.valueToTree(m.inboundCounters()));
    Map<String, Object> sweep = m.sweep();
    if (!sweep.isEmpty()) { // a worker's runs, or a sweep client's view of the cluster
      root.set("sweep", JSON.valueToTree(sweep));
    }
    NodeMetrics.LatencySnapshot quiet = m.silences();
    if (quiet.count() > 0) {
      ObjectNode sl = root.putObject("queue_silence_us");
      sl.put("p50", quiet.p50() / 1000);
      sl.put("p99", quiet.p99() / 1000);
      sl.put("p99.9", quiet.p999() / 1000);
      sl.put("max", quiet.max() / 1000);
      sl.put("count", quiet.count());
    }
    return root.toPrettyString() + "\n";
  }

  /**
   * {@code /metrics}: counters, latency quantiles (HdrHistogram, seconds), queue depths, members.
   */
  public static String prometheus(List<String> roles, List<Member> members, NodeMetrics m) {
    StringBuilder sb = new StringBuilder(2048);
    header(sb, "mqroute_requests_total", "counter", "Requests that ended on this node, by status.");
    for (Status s : Status.values()) {
      sample(sb, "mqroute_requests_total", label("status", s.name()), m.count(s));
    }
    header(
        sb, "mqroute_errors_total", "counter", "Requests that ended on this node with an error.");
    sb.append("mqroute_errors_total ").append(m.errors()).append('\n');
    NodeMetrics.LatencySnapshot l = m.latency();
    header(
        sb,
        "mqroute_latency_seconds",
        "summary",
        "Latency of OK requests on this node (host: arrival to completion; device: on the"
            + " backend).");
    quantile(sb, "mqroute_latency_seconds", "0.5", l.p50());
    quantile(sb, "mqroute_latency_seconds", "0.9", l.p90());
    quantile(sb, "mqroute_latency_seconds", "0.99", l.p99());
    quantile(sb, "mqroute_latency_seconds", "0.999", l.p999());
    quantile(sb, "mqroute_latency_seconds", "1", l.max());
    // HdrHistogram keeps no exact sum: mean x count, within its 3 significant digits
    sb.append("mqroute_latency_seconds_sum ")
        .append(seconds((long) (l.meanNanos() * l.count())))
        .append('\n');
    sb.append("mqroute_latency_seconds_count ").append(l.count()).append('\n');
    header(
        sb,
        "mqroute_queue_depth",
        "gauge",
        "Requests on a queue: in_flight (sent to it) and waiting (for room).");
    for (NodeMetrics.QueueGauge g : m.queues()) {
      String q = label("queue", g.name()) + ",";
      sample(sb, "mqroute_queue_depth", q + label("state", "in_flight"), g.inFlight());
      sample(sb, "mqroute_queue_depth", q + label("state", "waiting"), g.waiting());
    }
    header(
        sb,
        "mqroute_dropped_total",
        "counter",
        "Messages refused as forged or from outside the cluster, by reason.");
    m.dropped().forEach((r, n) -> sample(sb, "mqroute_dropped_total", label("reason", r), n));
    header(
        sb,
        "mqroute_events_total",
        "counter",
        "Request-level failure handling: queues suspected and reinstated, requests fenced,"
            + " completions that came after their request had ended.");
    m.events().forEach((e, n) -> sample(sb, "mqroute_events_total", label("event", e), n));
    NodeMetrics.LatencySnapshot quiet = m.silences();
    header(
        sb,
        "mqroute_queue_silence_seconds",
        "summary",
        "How long a queue with requests outstanding went without answering, per answer (host;"
            + " suspect-after must stay above it).");
    quantile(sb, "mqroute_queue_silence_seconds", "0.5", quiet.p50());
    quantile(sb, "mqroute_queue_silence_seconds", "0.99", quiet.p99());
    quantile(sb, "mqroute_queue_silence_seconds", "0.999", quiet.p999());
    quantile(sb, "mqroute_queue_silence_seconds", "1", quiet.max());
    sb.append("mqroute_queue_silence_seconds_count ").append(quiet.count()).append('\n');
    header(
        sb,
        "mqroute_inbound_total",
        "counter",
        "What reached this node from outside, by source (artery: the guard in front of Artery's"
            + " port; kryo: messages that failed to decode; nbd: the NBD server) and event"
            + " (accepted, established, refused_limit, handshake_timeout, bad_framing, malformed,"
            + " ...).");
    bySource(sb, "mqroute_inbound_total", "event", m.inboundCounters());
    header(
        sb,
        "mqroute_inbound_connections",
        "gauge",
        "Inbound connections now, by source and state (open; pending: not past the handshake"
            + " yet).");
    bySource(sb, "mqroute_inbound_connections", "state", m.inboundGauges());
    header(sb, "mqroute_in_flight", "gauge", "Requests in flight on this host's router.");
    sb.append("mqroute_in_flight ").append(roles.contains("host") ? m.inFlight() : 0).append('\n');
    header(
        sb,
        "mqroute_cluster_members",
        "gauge",
        "Cluster members as this node sees them, by status.");
    TreeMap<String, Integer> byStatus = new TreeMap<>();
    for (Member mb : members) {
      byStatus.merge(mb.status().toLowerCase(Locale.ROOT), 1, Integer::sum);
    }
    byStatus.forEach((s, n) -> sample(sb, "mqroute_cluster_members", label("status", s), n));
    return sb.toString();
  }

  /** A metric's HELP and TYPE lines. */
  private static void header(StringBuilder sb, String metric, String type, String help) {
    sb.append("# HELP ").append(metric).append(' ').append(help).append('\n');
    sb.append("# TYPE ").append(metric).append(' ').append(type).append('\n');
  }

  /** One sample: {@code metric{labels} value}. */
  private static void sample(StringBuilder sb, String metric, String labels, Object value) {
    sb.append(metric).append('{').append(labels).append("} ").append(value).append('\n');
  }

  /** {@code name="value"}, the value escaped. */
  private static String label(String name, String value) {
    return name + "=\"" + escape(value) + "\"";
  }

  /** One line per source and {@code label} value: {@code metric{source="..",label=".."} n}. */
  private static void bySource(
      StringBuilder sb, String metric, String label, Map<String, Map<String, Long>> values) {
    values.forEach(
        (source, byLabel) ->
            byLabel.forEach(
                (v, n) -> sample(sb, metric, label("source", source) + "," + label(label, v), n)));
  }

  private static void quantile(StringBuilder sb, String metric, String q, long nanos) {
    sample(sb, metric, label("quantile", q), seconds(nanos));
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.9f", nanos / 1e9);
  }

  private static String escape(String label) {
    return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
