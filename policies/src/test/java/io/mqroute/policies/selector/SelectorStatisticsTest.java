package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.topology.CpuTopology;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * Distribution checks with fixed seeds (deterministic: they pass or fail the same way every run).
 */
class SelectorStatisticsTest {

  /** Chi-square critical value for 15 degrees of freedom at p = 0.001. */
  static final double CHI2_15_P001 = 37.697;

  @Test
  void randomIsUniformOverRegisteredQueues() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 12))
            .registered(0, 1, 2, 3, 5, 7, 8, 11, 12, 13, 16, 17, 19, 20, 22, 23)
            .build();
    QueueSelector s = RandomSelector.newBuilder().build();
    SeededRandom routing = SeededRandom.stream(2024, "routing");
    int draws = 160_000;
    int[] count = new int[24];
    for (int i = 0; i < draws; i++) {
      count[s.select(view, i % 24, false, routing)]++;
    }
    double expected = draws / 16.0;
    double chi2 = 0;
    for (int q = 0; q < 24; q++) {
      if (view.registered(q)) {
        chi2 += (count[q] - expected) * (count[q] - expected) / expected;
      } else {
        assertThat(count[q]).isZero();
      }
    }
    assertThat(chi2).as("chi-square with 15 d.o.f.").isLessThan(CHI2_15_P001);
  }

  @Test
  void p2cDrawsWithReplacement() {
    // queue 0 is the unique least-loaded queue, so p2c returns it exactly when one of its two
    // draws hit it: P = 1 - ((N-1)/N)^2 with replacement (2/N without).
    int n = 8;
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, n))
            .nrReqs(0, 5, 5, 5, 5, 5, 5, 5)
            .build();
    QueueSelector s = PowerOfChoicesSelector.newBuilder().build();
    SeededRandom routing = SeededRandom.stream(7, "routing");
    int trials = 100_000;
    int hits = 0;
    for (int i = 0; i < trials; i++) {
      hits += s.select(view, 0, false, routing) == 0 ? 1 : 0;
    }
    double p = 1 - Math.pow((n - 1.0) / n, 2);
    double sigma = Math.sqrt(trials * p * (1 - p));
    assertThat((double) hits).isCloseTo(trials * p, Offset.offset(4 * sigma));
    assertThat(Math.abs(hits - trials * 2.0 / n))
        .as("distinguishable from no replacement")
        .isGreaterThan(4 * sigma);
  }

  @Test
  void p2cDistinctDrawsWithoutReplacement() {
    // the same view: queue 0 wins exactly when it is one of the d distinct draws, P = d / N
    // (1 - ((N-1)/N)^d with replacement)
    int n = 8;
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, n))
            .nrReqs(0, 5, 5, 5, 5, 5, 5, 5)
            .build();
    for (int d : new int[] {2, 3}) {
      QueueSelector s = DistinctChoicesSelector.newBuilder().choices(d).build();
      SeededRandom routing = SeededRandom.stream(7, "routing");
      int trials = 100_000;
      int hits = 0;
      for (int i = 0; i < trials; i++) {
        hits += s.select(view, 0, false, routing) == 0 ? 1 : 0;
      }
      double p = d / (double) n;
      double sigma = Math.sqrt(trials * p * (1 - p));
      assertThat((double) hits).as("d = %d", d).isCloseTo(trials * p, Offset.offset(4 * sigma));
      assertThat(Math.abs(hits - trials * (1 - Math.pow((n - 1.0) / n, d))))
          .as("d = %d: distinguishable from drawing with replacement", d)
          .isGreaterThan(4 * sigma);
    }
  }

  @Test
  void p2cDistinctDrawsEveryPairOfQueuesEquallyOften() {
    // all loads equal: ties go to the later draw, so the answer is the second queue of a uniform
    // ordered pair of distinct queues: uniform over the registered queues, never unregistered
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 12))
            .registered(0, 1, 2, 3, 5, 7, 8, 11, 12, 13, 16, 17, 19, 20, 22, 23)
            .build();
    QueueSelector s = DistinctChoicesSelector.newBuilder().build();
    SeededRandom routing = SeededRandom.stream(2025, "routing");
    int draws = 160_000;
    int[] count = new int[24];
    for (int i = 0; i < draws; i++) {
      count[s.select(view, i % 24, false, routing)]++;
    }
    double expected = draws / 16.0;
    double chi2 = 0;
    for (int q = 0; q < 24; q++) {
      if (view.registered(q)) {
        chi2 += (count[q] - expected) * (count[q] - expected) / expected;
      } else {
        assertThat(count[q]).isZero();
      }
    }
    assertThat(chi2).as("chi-square with 15 d.o.f.").isLessThan(CHI2_15_P001);
  }

  @Test
  void p2cDistinctWithMoreChoicesThanQueuesIsTheShortestQueue() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 4)).nrReqs(3, 1, 2, 4).build();
    QueueSelector s = DistinctChoicesSelector.newBuilder().choices(6).build();
    SeededRandom routing = SeededRandom.stream(3, "routing");
    for (int i = 0; i < 1000; i++) {
      assertThat(s.select(view, 0, false, routing)).isEqualTo(1);
    }
  }

  @Test
  void reducedV3NodeP2cAlsoDrawsWithReplacement() {
    // foreground, own queue over the NUMA threshold: best_queue over node 0 {0..3}; if it misses
    // the idle queue 2, the node pick (9) fails the NUMA threshold and best_queue over all 8 runs:
    // P(2) = 1 - (3/4)^2 * (7/8)^2, each factor a two-draw miss with replacement
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
            .nrReqs(9, 9, 0, 9, 9, 9, 9, 9)
            .build();
    QueueSelector s = ReducedV3Selector.newBuilder().build();
    SeededRandom routing = SeededRandom.stream(8, "routing");
    int trials = 100_000;
    int hits = 0;
    for (int i = 0; i < trials; i++) {
      hits += s.select(view, 1, false, routing) == 2 ? 1 : 0;
    }
    double p = 1 - Math.pow(3.0 / 4, 2) * Math.pow(7.0 / 8, 2);
    double sigma = Math.sqrt(trials * p * (1 - p));
    assertThat((double) hits).isCloseTo(trials * p, Offset.offset(4 * sigma));
  }
}
