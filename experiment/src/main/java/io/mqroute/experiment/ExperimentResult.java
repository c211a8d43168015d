package io.mqroute.experiment;

import java.util.List;

/**
 * All runs of one experiment, in the order of the script (variants outer, sweep points inner), the
 * verdicts of its expectations, and the experiment's digest.
 */
public record ExperimentResult(
    ExperimentSpec spec,
    List<VariantResult> variants,
    List<Expectation.Verdict> verdicts,
    String digest) {

  /** True when no run broke an invariant (an expected stall is not a broken invariant). */
  public boolean healthy() {
    return variants.stream().allMatch(VariantResult::healthy);
  }

  /** True when every expectation holds and every variant meant to stall did. */
  public boolean expectationsHold() {
    return verdicts.stream().allMatch(Expectation.Verdict::holds)
        && variants.stream().allMatch(v -> !v.variant().expectStall() || v.stalled());
  }
}
