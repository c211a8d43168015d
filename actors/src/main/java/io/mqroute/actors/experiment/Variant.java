package io.mqroute.actors.experiment;

import io.mqroute.actors.machine.MachineSpec;
import java.util.Map;

/**
 * One configuration an experiment runs.
 *
 * @param params the overrides that make this variant, as written (for reports and result.json)
 */
public record Variant(String name, Map<String, String> params, MachineSpec machine, Workload workload) {}
