package io.mqroute.actors.experiment;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.runtime.RunStats;

/**
 * One variant's run.
 *
 * @param digest    hex digest of the variant's results (same seed → same digest, in any JVM)
 * @param wallNanos wall-clock time the run took (reported, never part of a digest)
 */
public record VariantResult(Variant variant, MachineResult result, RunStats stats, String digest,
    long wallNanos) {}
