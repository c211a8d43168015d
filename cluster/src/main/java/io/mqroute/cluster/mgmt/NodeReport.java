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
    sb.append("# HELP mqroute_requests_total Requests that ended on this node, by status.\n");
    sb.append("# TYPE mqroute_requests_total counter\n");
    for (Status s : Status.values()) {
      sb.append("mqroute_requests_total{status=\"")
          .append(s.name())
          .append("\"} ")
          .append(m.count(s))
          .append('\n');
    }
    sb.append("# HELP mqroute_errors_total Requests that ended on this node with an error.\n");
    sb.append("# TYPE mqroute_errors_total counter\n");
    sb.append("mqroute_errors_total ").append(m.errors()).append('\n');
    NodeMetrics.LatencySnapshot l = m.latency();
    sb.append(
        "# HELP mqroute_latency_seconds Latency of OK requests on this node (host: arrival to completion;"
            + " device: on the backend).\n");
    sb.append("# TYPE mqroute_latency_seconds summary\n");
    quantile(sb, "0.5", l.p50());
    quantile(sb, "0.9", l.p90());
    quantile(sb, "0.99", l.p99());
    quantile(sb, "0.999", l.p999());
    quantile(sb, "1", l.max());
    // HdrHistogram keeps no exact sum: mean x count, within its 3 significant digits
    sb.append("mqroute_latency_seconds_sum ")
        .append(seconds((long) (l.meanNanos() * l.count())))
        .append('\n');
    sb.append("mqroute_latency_seconds_count ").append(l.count()).append('\n');
    sb.append(
        "# HELP mqroute_queue_depth Requests on a queue: in_flight (sent to it) and waiting (for room).\n");
    sb.append("# TYPE mqroute_queue_depth gauge\n");
    for (NodeMetrics.QueueGauge g : m.queues()) {
      String q = escape(g.name());
      sb.append("mqroute_queue_depth{queue=\"")
          .append(q)
          .append("\",state=\"in_flight\"} ")
          .append(g.inFlight())
          .append('\n');
      sb.append("mqroute_queue_depth{queue=\"")
          .append(q)
          .append("\",state=\"waiting\"} ")
          .append(g.waiting())
          .append('\n');
    }
    sb.append(
        "# HELP mqroute_dropped_total Messages refused as forged or from outside the cluster, by reason.\n");
    sb.append("# TYPE mqroute_dropped_total counter\n");
    m.dropped()
        .forEach(
            (r, n) ->
                sb.append("mqroute_dropped_total{reason=\"")
                    .append(escape(r))
                    .append("\"} ")
                    .append(n)
                    .append('\n'));
    sb.append(
        "# HELP mqroute_events_total Request-level failure handling: queues suspected and reinstated,"
            + " requests fenced, completions that came after their request had ended.\n");
    sb.append("# TYPE mqroute_events_total counter\n");
    m.events()
        .forEach(
            (e, n) ->
                sb.append("mqroute_events_total{event=\"")
                    .append(escape(e))
                    .append("\"} ")
                    .append(n)
                    .append('\n'));
    NodeMetrics.LatencySnapshot quiet = m.silences();
    sb.append(
        "# HELP mqroute_queue_silence_seconds How long a queue with requests outstanding went without"
            + " answering, per answer (host; suspect-after must stay above it).\n");
    sb.append("# TYPE mqroute_queue_silence_seconds summary\n");
    quantile(sb, "mqroute_queue_silence_seconds", "0.5", quiet.p50());
    quantile(sb, "mqroute_queue_silence_seconds", "0.99", quiet.p99());
    quantile(sb, "mqroute_queue_silence_seconds", "0.999", quiet.p999());
    quantile(sb, "mqroute_queue_silence_seconds", "1", quiet.max());
    sb.append("mqroute_queue_silence_seconds_count ").append(quiet.count()).append('\n');
    sb.append(
        "# HELP mqroute_inbound_total What reached this node from outside, by source (artery: the"
            + " guard in front of Artery's port; kryo: messages that failed to decode; nbd: the NBD"
            + " server) and event (accepted, established, refused_limit, handshake_timeout,"
            + " bad_framing, malformed, ...).\n");
    sb.append("# TYPE mqroute_inbound_total counter\n");
    bySource(sb, "mqroute_inbound_total", "event", m.inboundCounters());
    sb.append(
        "# HELP mqroute_inbound_connections Inbound connections now, by source and state (open;"
            + " pending: not past the handshake yet).\n");
    sb.append("# TYPE mqroute_inbound_connections gauge\n");
    bySource(sb, "mqroute_inbound_connections", "state", m.inboundGauges());
    sb.append("# HELP mqroute_in_flight Requests in flight on this host's router.\n");
    sb.append("# TYPE mqroute_in_flight gauge\n");
    sb.append("mqroute_in_flight ").append(roles.contains("host") ? m.inFlight() : 0).append('\n');
    sb.append(
        "# HELP mqroute_cluster_members Cluster members as this node sees them, by status.\n");
    sb.append("# TYPE mqroute_cluster_members gauge\n");
    TreeMap<String, Integer> byStatus = new TreeMap<>();
    for (Member mb : members) {
      byStatus.merge(mb.status().toLowerCase(Locale.ROOT), 1, Integer::sum);
    }
    byStatus.forEach(
        (s, n) ->
            sb.append("mqroute_cluster_members{status=\"")
                .append(s)
                .append("\"} ")
                .append(n)
                .append('\n'));
    return sb.toString();
  }

  /** One line per source and {@code label} value: {@code metric{source="..",label=".."} n}. */
  private static void bySource(
      StringBuilder sb, String metric, String label, Map<String, Map<String, Long>> values) {
    values.forEach(
        (source, byLabel) ->
            byLabel.forEach(
                (v, n) ->
                    sb.append(metric)
                        .append("{source=\"")
                        .append(escape(source))
                        .append("\",")
                        .append(label)
                        .append("=\"")
                        .append(escape(v))
                        .append("\"} ")
                        .append(n)
                        .append('\n')));
  }

  private static void quantile(StringBuilder sb, String q, long nanos) {
    quantile(sb, "mqroute_latency_seconds", q, nanos);
  }

  private static void quantile(StringBuilder sb, String metric, String q, long nanos) {
    sb.append(metric)
        .append("{quantile=\"")
        .append(q)
        .append("\"} ")
        .append(seconds(nanos))
        .append('\n');
  }

  private static String seconds(long nanos) {
    return String.format(Locale.ROOT, "%.9f", nanos / 1e9);
  }

  private static String escape(String label) {
    return label.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }
}
