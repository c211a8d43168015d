package io.mqroute.actors.machine;

import com.typesafe.config.ConfigFactory;
import io.mqroute.config.StrictConfig;
import java.nio.file.Path;

/** Machine specs for tests, written as the HOCON a user would write. */
final class TestMachines {
  private TestMachines() {}

  static MachineSpec parse(String hocon) {
    return MachineSpecParser.parse(
        StrictConfig.of(ConfigFactory.parseString(hocon), "", MachineSpecParser.KEYS),
        Path.of("."));
  }

  /** One CPU, no CPU costs, no C-states: pure queueing in front of {@code queues}. */
  static MachineSpec pureQueueing(String queues, String device) {
    return pureQueueing(1, queues, device);
  }

  /** {@code cores} CPUs on one node, no CPU costs, no C-states: pure queueing. */
  static MachineSpec pureQueueing(int cores, String queues, String device) {
    return parse(
        "machine { numa-nodes = 1, cores-per-node = "
            + cores
            + ", cpu { submit-cost = 0, server-cost = 0,"
            + " completion-cost = 0, wake-cost = 0, reap-cost = 0, switch-cost = 0, migrate-cost = 0, c-states = none } }\n"
            + "queues { "
            + queues
            + " }\n"
            + "router { selector = single }\n"
            + "device = \""
            + device
            + "\"\n"
            + "stall-limit = 10s\n");
  }
}
