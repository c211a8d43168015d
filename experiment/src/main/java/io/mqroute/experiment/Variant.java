package io.mqroute.experiment;

import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.Workload;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One configuration an experiment runs: a named variant at one point of the sweep.
 *
 * @param params the overrides that make this variant (shortcuts expanded): the {@code --set} values
 *     it does not override, then its own as written
 * @param point the sweep values of this run (empty without a sweep), full key paths
 * @param expectStall the variant is meant to stall (the seed 001 V2 ENOMEM switch): a stall is then
 *     the expected outcome, not a broken invariant
 */
public record Variant(
    String name,
    Map<String, String> params,
    MachineSpec machine,
    Workload workload,
    Map<String, String> point,
    boolean expectStall) {

  /** {@code name} or {@code name[key=value,...]}. */
  public String id() {
    if (point.isEmpty()) {
      return name;
    }
    return name
        + point.entrySet().stream()
            .map(e -> shortKey(e.getKey()) + "=" + e.getValue())
            .collect(Collectors.joining(",", "[", "]"));
  }

  static String shortKey(String key) {
    int dot = key.lastIndexOf('.');
    return dot < 0 ? key : key.substring(dot + 1);
  }
}
