package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.config.StrictConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A workload may plan at most an hour of simulated time per run (docs/fio-jobs.md). */
class SimulatedTimeCapTest {
  private static final MachineSpec MACHINE =
      MachineSpecParser.parse(
          StrictConfig.of(ConfigFactory.empty(), "", MachineSpecParser.KEYS), Path.of("."));

  private static int plans(String text) {
    return FioWorkload.parse(text, "w.fio").plans(MACHINE).size();
  }

  @Test
  void aRuntimePastTheCapIsRefusedNamingTheJobAndTheKey() {
    assertThatThrownBy(() -> plans("[global]\nsize=1g\ntime_based\n[j]\nruntime=1000000h\n"))
        .isInstanceOf(FioParseException.class)
        .hasMessage(
            "w.fio:4: job j: runtime=1000000h: the run would simulate 1000000h, more than the"
                + " cap of 1h per run (the stonewall groups' longest startdelay + ramp_time +"
                + " runtime, added up; see docs/fio-jobs.md)");
  }

  @Test
  void stonewallGroupsAddUpAndStartdelayAndRampCount() {
    String group = "[g%d]\nstonewall\nsize=1g\nruntime=25m\n";
    assertThat(plans(String.format(group, 1) + String.format(group, 2))).isEqualTo(2);
    assertThatThrownBy(
            () ->
                plans(String.format(group, 1) + String.format(group, 2) + String.format(group, 3)))
        .hasMessageContaining("the run would simulate 1.25h, more than the cap of 1h");
    assertThatThrownBy(() -> plans("[j]\nsize=1g\nruntime=59m\nramp_time=2m\n"))
        .hasMessageContaining("job j: runtime=3540s (with ramp_time and startdelay)");
    assertThat(plans("[j]\nsize=1g\nruntime=" + MachineRun.MAX_SIMULATED_NANOS / 1000 + "us\n"))
        .isEqualTo(1);
  }
}
