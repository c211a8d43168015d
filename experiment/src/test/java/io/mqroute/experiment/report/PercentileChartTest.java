package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PercentileChartTest {
  @Test
  void eachNineIsOneDecadeOfTheAxis() {
    assertThat(PercentileChart.position(90)).isCloseTo(1, within(1e-9));
    assertThat(PercentileChart.position(99.9)).isCloseTo(3, within(1e-9));
    assertThat(PercentileChart.position(50)).isCloseTo(Math.log10(2), within(1e-9));
    assertThat(PercentileChart.percentile(PercentileChart.position(99.99)))
        .isCloseTo(99.99, within(1e-9));
  }

  @Test
  void ticksAreLabelledAsPercentiles() {
    assertThat(PercentileChart.TICKS).startsWith(50, 90, 99, 99.9, 99.99);
    assertThat(PercentileChart.label(50)).isEqualTo("50%");
    assertThat(PercentileChart.label(99.9)).isEqualTo("99.9%");
    assertThat(PercentileChart.label(99.99)).isEqualTo("99.99%");
  }

  @Test
  void theCurveGoesAsDeepAsTheSamplesAndIsInMicroseconds() {
    Histogram h = new Histogram(3_600_000_000_000L, 3);
    for (int i = 1; i <= 1000; i++) {
      h.recordValue(i * 1000L);
    }
    double[][] xy = PercentileChart.curve(h, 4);
    assertThat(xy[0][0]).isZero();
    assertThat(xy[0][xy[0].length - 1]).isCloseTo(3, within(1e-9));
    assertThat(xy[1][0]).isCloseTo(1, within(0.01));
    assertThat(xy[1][xy[1].length - 1]).isCloseTo(1000, within(1.0));
    for (int i = 1; i < xy[0].length; i++) {
      assertThat(xy[0][i]).isGreaterThan(xy[0][i - 1]);
      assertThat(xy[1][i]).isGreaterThanOrEqualTo(xy[1][i - 1]);
    }
  }

  @Test
  void aRunWhereNothingCompletedStillGetsItsPlot(@TempDir Path dir) throws IOException {
    ChartFiles.headless();
    PercentileChart chart = PercentileChart.of(List.of());
    assertThat(chart.getSeriesMap()).isEmpty();
    assertThat(ChartFiles.save(chart, dir, "empty"))
        .allSatisfy(f -> assertThat(f).isNotEmptyFile());
  }
}
