package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.runtime.mm1.Mm1Model;
import io.mqroute.runtime.mm1.Mm1Params;
import io.mqroute.runtime.mm1.Mm1Result;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The M/M/1 calibration model in virtual time: accuracy against theory and determinism. */
@Tag("integration")
class Mm1VirtualTimeTest {
  private static final long HORIZON = TimeUnit.HOURS.toNanos(1);

  static SimSystem.Outcome<Mm1Result> run(Mm1Params params) {
    return SimSystem.run(
        "mm1", TestConfigs.QUIET, HORIZON, result -> Mm1Model.root(params, result));
  }

  @Test
  void meanSojournMatchesTheory() {
    // ρ = 0.5: over 200k requests the standard deviation of the sample mean is 0.66 % (300 seeds of
    // the same model
    // in a plain loop), so 3 % is a 4.5-sigma band. At ρ = 0.8 it would be 2 %, too wide for a
    // useful check.
    Mm1Params params = Mm1Params.rho05(42, 200_000);

    SimSystem.Outcome<Mm1Result> outcome = run(params);

    assertThat(outcome.stats().done()).isTrue();
    assertThat(outcome.stats().foreignTasks()).isZero();
    Mm1Result result = outcome.result().orElseThrow();
    assertThat(result.completed()).isEqualTo(200_000);
    double theory = params.theoreticalMeanSojournNanos();
    assertThat(result.meanSojournNanos()).isCloseTo(theory, within(0.03 * theory));
    // Sojourn time in M/M/1 is exponential with rate μ−λ: median = ln 2 / (μ−λ).
    assertThat((double) result.latencies().getValueAtPercentile(50))
        .isCloseTo(Math.log(2) * theory, within(0.05 * Math.log(2) * theory));
    // The run ends at the last completion: about requests / λ of virtual time (the driver is exact,
    // the Poisson
    // process is not, hence the 2 % band).
    double expectedSpan = params.requests() * params.meanInterarrivalNanos();
    assertThat((double) outcome.stats().finalVirtualNanos())
        .isCloseTo(expectedSpan, within(0.02 * expectedSpan));
    assertThat(outcome.stats().finalVirtualNanos()).isEqualTo(result.lastCompletionNanos());
  }

  @Test
  void sameSeedGivesTheSameDigestSequentiallyAndOnConcurrentSystems() throws Exception {
    Mm1Params seed7 = Mm1Params.rho08(7, 50_000);
    SimSystem.Outcome<Mm1Result> reference = run(seed7);
    long digest = reference.result().orElseThrow().digest();

    SimSystem.Outcome<Mm1Result> again = run(seed7);
    assertThat(again.result().orElseThrow().digest()).isEqualTo(digest);
    assertThat(again.stats().tasksRun()).isEqualTo(reference.stats().tasksRun());
    assertThat(again.stats().timersFired()).isEqualTo(reference.stats().timersFired());
    assertThat(again.stats().finalVirtualNanos()).isEqualTo(reference.stats().finalVirtualNanos());

    ExecutorService drivers = Executors.newFixedThreadPool(2);
    try {
      List<Future<SimSystem.Outcome<Mm1Result>>> concurrent =
          drivers.invokeAll(List.of(() -> run(seed7), () -> run(seed7)), 120, TimeUnit.SECONDS);
      for (Future<SimSystem.Outcome<Mm1Result>> each : concurrent) {
        SimSystem.Outcome<Mm1Result> outcome = each.get();
        assertThat(outcome.result().orElseThrow().digest()).isEqualTo(digest);
        assertThat(outcome.stats().foreignTasks()).isZero();
        assertThat(outcome.stats().tasksRun()).isEqualTo(reference.stats().tasksRun());
      }
    } finally {
      drivers.shutdownNow();
    }

    long otherSeed = run(Mm1Params.rho08(8, 50_000)).result().orElseThrow().digest();
    assertThat(otherSeed).isNotEqualTo(digest);
  }
}
