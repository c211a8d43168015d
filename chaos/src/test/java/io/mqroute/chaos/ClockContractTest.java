package io.mqroute.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One request script through the same behaviours on both clocks: a small machine whose rings fill
 * (ring-size 4, more writers than slots), a CPU and its queue taken away mid-run and given back
 * (hotplug), remounts between iterations. In virtual time and in real time (real dispatchers,
 * microsecond timers, the chaos controller's events at their real instants) every request ends
 * exactly once and OK, the ring bound holds, the full ring was exercised, and the checker finds
 * nothing — under both hotplug semantics. Timing differs between the clocks; the outcomes may not.
 */
@Tag("integration")
class ClockContractTest {
  private static final Duration WALL = Duration.ofSeconds(120);

  private static ChaosProfile script(Semantics semantics) {
    String text =
        """
        name = clock-contract
        machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none } }
        queues { kind = per-cpu, ring-size = 4 }
        device = "fixed(100us)"
        stall-limit = 10s
        chaos {
          load-factor = 12
          iterations = 2
          hotplug-interval = 0
          ops-per-writer = 60
          iteration-runtime = 2s
          max-wait = 30s
          events = ["at 5ms offline cpu 1", "at 25ms online cpu 1"]
        }
        """;
    return ChaosProfileParser.parse(
        new ChaosProfileParser.Source("contract.conf", text), semantics, false);
  }

  @ParameterizedTest
  @EnumSource(Semantics.class)
  void bothClocksEndEveryRequestOnceWithTheSameOutcomes(Semantics semantics) {
    ChaosProfile p = script(semantics);
    MachineResult virtual = ChaosRun.machine(p, 1);
    MachineResult real = ChaosRun.machineInRealTime(p, 1, WALL);
    SeedResult v = ChaosRun.check(p, 1, virtual);
    SeedResult r = ChaosRun.check(p, 1, real);
    System.out.printf(
        "ClockContractTest %s: virtual %d requests %d errors %d hotplug; real %d / %d / %d%n",
        semantics, v.requests(), v.errors(), v.hotplug(), r.requests(), r.errors(), r.hotplug());
    assertThat(v.violations()).as("virtual time").isEmpty();
    assertThat(r.violations()).as("real time").isEmpty();
    assertThat(r.requests()).isEqualTo(v.requests()).isPositive();
    assertThat(r.errors()).isEqualTo(v.errors()).isZero();
    assertThat(r.hotplug()).isEqualTo(v.hotplug());
    assertThat(ios(real)).isEqualTo(ios(virtual));
    for (MachineResult m : new MachineResult[] {virtual, real}) {
      assertThat(m.queues()).allSatisfy(q -> assertThat(q.maxOccupancy()).isLessThanOrEqualTo(4));
      assertThat(m.queues().stream().mapToLong(FlowProtocol.QueueStats::overflowWaits).sum())
          .as("the full ring was exercised")
          .isPositive();
    }
  }

  private static long ios(MachineResult m) {
    long n = 0;
    for (JobStats s : m.jobs()) {
      n += s.direction(Direction.READ).totalIos() + s.direction(Direction.WRITE).totalIos();
    }
    return n;
  }
}
