package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.experiment.ExperimentParser;
import io.mqroute.experiment.ExperimentResult;
import io.mqroute.experiment.ExperimentRunner;
import io.mqroute.experiment.Summary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replicated sweep plots one line per variant, each point with its 95% interval. */
class ReplicatedSweepTest {

  @TempDir Path tmp;

  @Test
  void aSweepDrawsOneLinePerVariant() throws IOException {
    ExperimentResult r =
        ExperimentRunner.run(
            ExperimentParser.parse(
                Files.copy(
                    Path.of("src/test/resources/replicated.conf"), tmp.resolve("replicated.conf")),
                null,
                Map.of(),
                false),
            2,
            x -> {});
    List<Sweep> sweeps = Sweep.detect(r.variants(), ResultFiles::variantAndPoint);
    assertThat(sweeps).hasSize(1);
    assertThat(sweeps.get(0).key()).isEqualTo("fio.iodepth");
    assertThat(sweeps.get(0).lines().keySet()).containsExactly("fast", "slow");
    assertThat(sweeps.get(0).lines().get("slow"))
        .extracting(Sweep.Point::x)
        .containsExactly(1.0, 4.0);
    // each point carries its 95% interval over the replications, the one result.json gives
    var series = sweeps.get(0).iopsChart().getSeriesMap().get("slow");
    assertThat(series.getExtraValues())
        .containsExactly(
            r.variants().stream()
                .filter(v -> v.variant().name().equals("slow"))
                .mapToDouble(v -> v.aggregate(Summary::iops).ci95())
                .toArray());
    assertThat(Arrays.stream(series.getExtraValues()).min().orElse(0)).isPositive();
    Collection<? extends Number> bars =
        VariantBars.iops(r.variants()).getSeriesMap().values().iterator().next().getExtraValues();
    assertThat(bars).hasSize(r.variants().size()).allMatch(ci -> ci.doubleValue() > 0);
  }
}
