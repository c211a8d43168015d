package io.mqroute.bench.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.typesafe.config.ConfigFactory;
import io.mqroute.runtime.SimSystem;
import io.mqroute.runtime.mm1.Mm1Model;
import io.mqroute.runtime.mm1.Mm1Params;
import io.mqroute.runtime.mm1.Mm1Result;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The hand-written DES and the actor model in virtual time are two independent simulators of the
 * same model.
 */
class HandDesMm1Test {

  @Test
  void handDesMatchesTheory() {
    Mm1Params params = Mm1Params.rho05(42, 200_000);
    HandDesMm1.Result result = HandDesMm1.run(params);
    double theory = params.theoreticalMeanSojournNanos();
    assertThat(result.completed()).isEqualTo(200_000);
    assertThat(result.meanSojournNanos()).isCloseTo(theory, within(0.03 * theory));
  }

  @Test
  void actorModelInVirtualTimeGivesBitIdenticalResults() {
    Mm1Params params = Mm1Params.rho08(11, 20_000);

    HandDesMm1.Result hand = HandDesMm1.run(params);
    SimSystem.Outcome<Mm1Result> actors =
        SimSystem.run(
            "cross-check",
            ConfigFactory.parseString("pekko.loglevel = WARNING, pekko.stdout-loglevel = WARNING"),
            TimeUnit.HOURS.toNanos(1),
            result -> Mm1Model.root(params, result));

    Mm1Result actor = actors.result().orElseThrow();
    assertThat(actor.digest()).isEqualTo(hand.digest());
    assertThat(actor.latencySumNanos()).isEqualTo(hand.latencySumNanos());
    assertThat(actor.lastCompletionNanos()).isEqualTo(hand.endNanos());
  }
}
