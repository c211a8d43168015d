package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.experiment.Variant;
import io.mqroute.experiment.VariantResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SweepTest {
  /** A result that only carries a name and parameters: all that detection reads. */
  private static VariantResult v(String name, String... kv) {
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      params.put(kv[i], kv[i + 1]);
    }
    return new VariantResult(
        new Variant(name, params, null, null, Map.of(), false),
        null,
        null,
        "",
        0,
        List.of(),
        List.of());
  }

  @Test
  void aNumericKeyThatVariesIsASweepWithItsPointsInOrder() {
    List<Sweep> sweeps =
        Sweep.detect(
            List.of(v("b", "queues.ring-size", "256"), v("a", "queues.ring-size", "32")),
            Sweep.PARAMS);
    assertThat(sweeps).hasSize(1);
    Sweep s = sweeps.get(0);
    assertThat(s.key()).isEqualTo("queues.ring-size");
    assertThat(s.fileStem()).isEqualTo("sweep-queues.ring-size");
    assertThat(s.lines()).containsOnlyKeys("all");
    assertThat(s.lines().get("all")).extracting(Sweep.Point::x).containsExactly(32.0, 256.0);
  }

  @Test
  void theOtherKeysMakeTheLines() {
    List<Sweep> sweeps =
        Sweep.detect(
            List.of(
                v("a4", "ring", "4", "sel", "p2c"), v("a8", "ring", "8", "sel", "p2c"),
                v("b4", "ring", "4", "sel", "rr"), v("b8", "ring", "8", "sel", "rr")),
            Sweep.PARAMS);
    assertThat(sweeps).extracting(Sweep::key).containsExactly("ring");
    assertThat(sweeps.get(0).lines()).containsOnlyKeys("sel=p2c", "sel=rr");
  }

  @Test
  void wordsMissingKeysAndSinglePointsAreNoSweep() {
    assertThat(Sweep.detect(List.of(v("a", "sel", "p2c"), v("b", "sel", "rr")), Sweep.PARAMS))
        .isEmpty();
    assertThat(Sweep.detect(List.of(v("a", "ring", "4"), v("b", "sel", "rr")), Sweep.PARAMS))
        .isEmpty();
    assertThat(
            Sweep.detect(
                List.of(v("a", "ring", "4", "sel", "x"), v("b", "ring", "8", "sel", "y")),
                Sweep.PARAMS))
        .isEmpty();
    assertThat(Sweep.detect(List.of(v("a", "ring", "4")), Sweep.PARAMS)).isEmpty();
    assertThat(Sweep.detect(List.of(v("a", "ring", "NaN"), v("b", "ring", "8")), Sweep.PARAMS))
        .isEmpty();
  }

  @Test
  void theCoordinatesCanComeFromElsewhere() {
    // E.g. a future per-variant sweep point instead of the overrides.
    List<VariantResult> rs = List.of(v("a"), v("b"));
    List<Sweep> sweeps =
        Sweep.detect(rs, r -> Map.of("iodepth", r.variant().name().equals("a") ? "1" : "8"));
    assertThat(sweeps).extracting(Sweep::key).containsExactly("iodepth");
  }
}
