package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.mqroute.actors.machine.MachineResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ResultJsonTest {
  private static MachineResult machine(List<String> violations, String stall) {
    return new MachineResult(
        List.of(), List.of(), null, List.of(), List.of(), violations, stall, 0, null);
  }

  @Test
  void theSummaryIsKeyedLikeFioWithRoomForAConfidenceInterval() throws Exception {
    Summary s =
        new Summary(1234.5, 4096.0 * 1234, 15_000.25, 15_000, 20_000, 30_000, 40_000, 617, 2);
    String text = ResultJson.render(ResultJson.summary(s));
    JsonNode o = new ObjectMapper().readTree(text);
    List<String> keys = new ArrayList<>();
    o.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("iops", "bw_bytes", "ios", "errors", "lat_ns", "ci95");
    assertThat(text).contains("\"iops\" : 1234.500000", "\"mean\" : 15000.250000");
    assertThat(o.path("bw_bytes").asLong()).isEqualTo(4096L * 1234);
    JsonNode p = o.path("lat_ns").path("percentile");
    assertThat(p.path("50.000000").asLong()).isEqualTo(15_000);
    assertThat(p.path("99.000000").asLong()).isEqualTo(20_000);
    assertThat(p.path("99.900000").asLong()).isEqualTo(30_000);
    assertThat(p.path("99.990000").asLong()).isEqualTo(40_000);
    assertThat(o.path("ci95").isNull()).isTrue();
  }

  @Test
  void percentileKeysHaveSixDecimals() {
    assertThat(ResultJson.percentileKey(99.9)).isEqualTo("99.900000");
    assertThat(ResultJson.percentileKey(50)).isEqualTo("50.000000");
  }

  @Test
  void aStallOutranksAViolation() {
    assertThat(ResultJson.status(machine(List.of(), null))).isEqualTo("ok");
    assertThat(ResultJson.status(machine(List.of("lost request 3"), null))).isEqualTo("VIOLATION");
    assertThat(ResultJson.status(machine(List.of("lost request 3"), "queue 0 stuck")))
        .isEqualTo("STALL");
  }
}
