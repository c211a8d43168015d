package io.mqroute.chaos;

import java.util.List;

/**
 * One chaos seed's outcome.
 *
 * @param requests requests that ended (OK or an error)
 * @param errors requests that ended with an error
 * @param hotplug CPU state changes
 * @param faults fault windows opened
 * @param rerouted requests handed back from an offline CPU's queue and routed again (hotplug-aware)
 * @param violations broken invariants and failed checks (empty: the seed passed)
 * @param events the event log, in the event syntax (replayable)
 * @param digest the run's digest: the same seed, profile and semantics give the same digest
 */
public record SeedResult(
    long seed,
    Semantics semantics,
    long requests,
    long errors,
    long hotplug,
    long faults,
    long rerouted,
    List<String> violations,
    List<String> events,
    String digest,
    long virtualNanos) {

  public SeedResult {
    violations = List.copyOf(violations);
    events = List.copyOf(events);
  }

  public boolean passed() {
    return violations.isEmpty();
  }
}
