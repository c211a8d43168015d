package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.actors.device.Device;
import io.mqroute.protocol.Op;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@code device-ops}: a server time of its own per request kind, every other kind the device's. */
class DeviceOpsTest {
  private static Device device(String hocon) {
    return TestMachines.parse(hocon).device().get();
  }

  @Test
  void eachNamedKindHasItsOwnTimeAndTheRestTakeTheDevice() {
    MachineSpec spec =
        TestMachines.parse(
            "device = \"fixed(20us)\"\n"
                + "device-ops { unlink = \"fixed(64us)\", getattr = \"fixed(14us)\" }\n");
    Device d = spec.device().get();
    SplittableRandom rnd = new SplittableRandom(1);
    assertThat(d.serviceNanos(Op.UNLINK, 0, 0, 0, 0, rnd)).isEqualTo(64_000);
    assertThat(d.serviceNanos(Op.GETATTR, 0, 0, 0, 0, rnd)).isEqualTo(14_000);
    assertThat(d.serviceNanos(Op.READ, 0, 0, 4096, 0, rnd)).isEqualTo(20_000);
    assertThat(d.serviceNanos(Op.LOOKUP, 0, 0, 0, 0, rnd)).isEqualTo(20_000);
    assertThat(spec.deviceSpec()).isEqualTo("fixed(20us), getattr fixed(14us), unlink fixed(64us)");
    assertThat(device("device = \"cpu(1.8us)\"\ndevice-ops { mkdir = \"cpu(62us)\" }\n").onCpu())
        .isTrue();
  }

  @Test
  void withoutDeviceOpsTheDeviceIsAsBefore() {
    MachineSpec spec = TestMachines.parse("device = \"exponential(40us)\"\n");
    assertThat(spec.deviceSpec()).isEqualTo("exponential(40us)");
    assertThat(spec.device().get().getClass().getSimpleName()).isEqualTo("ExponentialDevice");
  }

  @Test
  void kindsServedAnotherWayOrUnsplittableModelsAreRefused() {
    assertThatThrownBy(
            () ->
                TestMachines.parse(
                    "device = \"cpu(2us)\"\ndevice-ops { lookup = \"fixed(9us)\" }\n"))
        .hasMessageContaining("device-ops.lookup: lookup = \"fixed(9us)\" is not CPU work")
        .hasMessageContaining("every kind must be served the same way");
    assertThatThrownBy(
            () ->
                TestMachines.parse(
                    "device = \"hdd(8.5ms, 7200, 180MB/s, 1ms)\"\n"
                        + "device-ops { lookup = \"fixed(9us)\" }\n"))
        .hasMessageContaining("not hdd, dpu or real I/O");
    assertThatThrownBy(() -> TestMachines.parse("device-ops { forget = \"fixed(1us)\" }\n"))
        .hasMessageContaining("forget");
    assertThatThrownBy(() -> TestMachines.parse("device-ops { unlink = \"fixd(1us)\" }\n"))
        .hasMessageContaining("device-ops.unlink")
        .hasMessageContaining("unknown device \"fixd\"");
  }
}
