package io.mqroute.actors.cpu;

import io.mqroute.policies.strategy.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A C-state table written out as {@code NAME:EXIT:RESIDENCY[, ...]}, shallow to deep, e.g. {@code
 * "haltpoll:1us:1us"}: what {@code /sys/devices/system/cpu/cpu0/cpuidle/state*} lists (name,
 * latency, residency) on a machine whose idle driver is not intel_idle's Skylake-SP table. On a KVM
 * guest with cpuidle-haltpoll and {@code guest_halt_poll_ns=0} the one state is a HLT exit to the
 * host, whose real exit latency (the host scheduling the vCPU thread again) is longer than the 1 µs
 * sysfs states and is what a calibration fits.
 */
public final class CStateTable {
  private CStateTable() {}

  /**
   * @throws IllegalArgumentException naming the entry that does not parse
   */
  public static List<CState> parse(String text) {
    List<CState> out = new ArrayList<>();
    for (String entry : text.split(",")) {
      String e = entry.trim();
      String[] p = e.split(":");
      if (p.length != 3 || p[0].isBlank()) {
        throw new IllegalArgumentException(
            "C-state \"" + e + "\" is not NAME:EXIT:RESIDENCY (e.g. haltpoll:1us:1us)");
      }
      long exit = Durations.parseNanos("exit latency of " + p[0], p[1].trim());
      long residency = Durations.parseNanos("target residency of " + p[0], p[2].trim());
      if (!out.isEmpty() && residency < out.get(out.size() - 1).residencyNanos()) {
        throw new IllegalArgumentException(
            String.format(
                Locale.ROOT,
                "C-state %s: residency %s is below the previous state's; list them shallow to deep",
                p[0],
                p[2].trim()));
      }
      out.add(new CState(p[0].trim(), exit, residency));
    }
    return List.copyOf(out);
  }
}
