package io.mqroute.actors.experiment;

import java.util.List;

/** All variants of one experiment, in the order of the script, and the experiment's digest. */
public record ExperimentResult(ExperimentSpec spec, List<VariantResult> variants, String digest) {
  /** True when every variant ran without a broken invariant or a stall. */
  public boolean healthy() {
    return variants.stream().allMatch(v -> v.result().healthy());
  }
}
