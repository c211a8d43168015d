package io.mqroute.cluster.mgmt;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mqroute.cluster.NodeMetrics;
import io.mqroute.protocol.Status;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** /status and /metrics bodies from a node's metrics. */
@Tag("integration")
class NodeReportTest {
  private static final ActorTestKit kit = ActorTestKit.create();
  private static final NodeMetrics METRICS = sample();

  @AfterAll
  static void shutDown() {
    kit.shutdownTestKit();
  }

  private static NodeMetrics sample() {
    NodeMetrics m = NodeMetrics.get(kit.system());
    for (int i = 1; i <= 1000; i++) {
      m.completed(Status.OK, i * 1_000L); // 1 us .. 1 ms
    }
    m.completed(Status.ENOTCONN, 5);
    m.completed(Status.ENOTCONN, 5);
    m.queue("pekko://mqroute@127.0.0.1:25521/user/queue-0").set(3, 5);
    m.queue("pekko://mqroute@127.0.0.1:25522/user/queue-16").setSuspected(true);
    m.event("queue-suspected");
    m.silence(40_000_000L);
    m.silence(2_000_000L);
    m.setInFlight(8);
    return m;
  }

  private static final List<NodeReport.Member> MEMBERS =
      List.of(
          new NodeReport.Member("pekko://mqroute@127.0.0.1:25520", "Up", List.of("host"), true),
          new NodeReport.Member("pekko://mqroute@127.0.0.1:25521", "Up", List.of("device"), false));

  @Test
  void statusIsJsonWithNodesQueuesDepthsAndInFlight() throws Exception {
    JsonNode s =
        new ObjectMapper()
            .readTree(
                NodeReport.statusJson(
                    "pekko://mqroute@127.0.0.1:25520", List.of("host"), MEMBERS, METRICS));
    assertThat(s.get("nodes")).hasSize(2);
    assertThat(s.get("nodes").get(1).get("reachable").asBoolean()).isFalse();
    JsonNode q = s.get("queues").get(0);
    assertThat(q.get("depth").asInt()).isEqualTo(8);
    assertThat(q.get("in_flight").asInt()).isEqualTo(3);
    assertThat(q.get("waiting").asInt()).isEqualTo(5);
    assertThat(s.get("in_flight").asInt()).isEqualTo(8);
    assertThat(s.get("requests").asLong()).isEqualTo(1002);
    assertThat(s.get("errors").asLong()).isEqualTo(2);
    assertThat(s.get("by_status").get("ENOTCONN").asLong()).isEqualTo(2);
    // request-level failure handling: a suspected queue, the events, the silences of busy queues
    assertThat(q.has("suspected")).isFalse();
    assertThat(s.get("queues").get(1).get("suspected").asBoolean()).isTrue();
    assertThat(s.get("events").get("queue-suspected").asLong()).isEqualTo(1);
    assertThat(s.get("queue_silence_us").get("count").asLong()).isEqualTo(2);
    assertThat(s.get("queue_silence_us").get("max").asLong()).isBetween(39_000L, 41_000L);
  }

  @Test
  void metricsArePrometheusTextWithLatencyQuantilesAndDepths() {
    String text = NodeReport.prometheus(List.of("host"), MEMBERS, METRICS);
    assertThat(text)
        .contains("# TYPE mqroute_requests_total counter\n")
        .contains("mqroute_requests_total{status=\"ENOTCONN\"} 2\n")
        .contains("mqroute_errors_total 2\n")
        .contains("# TYPE mqroute_latency_seconds summary\n")
        .contains("mqroute_latency_seconds_count 1000\n")
        .contains(
            "mqroute_queue_depth{queue=\"pekko://mqroute@127.0.0.1:25521/user/queue-0\",state=\"waiting\"} 5\n")
        .contains("mqroute_in_flight 8\n")
        .contains("mqroute_events_total{event=\"queue-suspected\"} 1\n")
        .contains("mqroute_queue_silence_seconds_count 2\n")
        .contains("mqroute_cluster_members{status=\"up\"} 2\n");
    // p50 of 1..1000 us is 500 us, within HdrHistogram's 3 significant digits
    String p50 =
        text.lines()
            .filter(l -> l.startsWith("mqroute_latency_seconds{quantile=\"0.5\"}"))
            .findFirst()
            .orElseThrow();
    assertThat(Double.parseDouble(p50.substring(p50.lastIndexOf(' ') + 1)))
        .isBetween(0.000499, 0.000501);
    // every sample line is "name{labels} value" or "name value"
    assertThat(text.lines().filter(l -> !l.startsWith("#")))
        .allMatch(l -> l.matches("[a-z_]+(\\{[^}]*})? -?[0-9.]+"));
  }
}
