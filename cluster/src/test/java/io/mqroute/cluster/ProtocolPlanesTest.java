package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue #16 item 4: each actor protocol of the cluster shells keeps the request path (data plane)
 * and the rest (control plane: membership, node loss, drains, reports) apart. A message is one or
 * the other by its type, checked by the compiler through sealed interfaces; this test pins that
 * every protocol is built that way.
 */
class ProtocolPlanesTest {
  private static final List<Class<?>> PROTOCOLS =
      List.of(HostRouterProtocol.class, RemoteQueueProtocol.class, DeviceQueueProtocol.class);

  @Test
  void everyCommandIsEitherDataOrControl() throws Exception {
    for (Class<?> p : PROTOCOLS) {
      Class<?> command = nested(p, "Command");
      Class<?> data = nested(p, "Data");
      Class<?> control = nested(p, "Control");
      assertThat(command.isSealed()).as(p.getSimpleName() + ".Command sealed").isTrue();
      assertThat(command.getPermittedSubclasses())
          .as(p.getSimpleName() + ".Command's planes")
          .containsExactlyInAnyOrder(data, control);
      assertThat(data.getPermittedSubclasses()).as(p.getSimpleName() + ".Data").isNotEmpty();
      assertThat(control.getPermittedSubclasses()).as(p.getSimpleName() + ".Control").isNotEmpty();
    }
  }

  @Test
  void theRequestPathIsData() {
    assertThat(HostRouterProtocol.Data.class)
        .isAssignableFrom(HostRouterProtocol.SubmitBatch.class)
        .isAssignableFrom(HostRouterProtocol.Finished.class);
    assertThat(RemoteQueueProtocol.Data.class)
        .isAssignableFrom(RemoteQueueProtocol.Routed.class)
        .isAssignableFrom(RemoteQueueProtocol.FromDevice.class);
    assertThat(DeviceQueueProtocol.Data.class)
        .isAssignableFrom(DeviceQueueProtocol.SubmitBatch.class);
    assertThat(RemoteQueueProtocol.Control.class)
        .isAssignableFrom(RemoteQueueProtocol.DeviceDraining.class)
        .isAssignableFrom(RemoteQueueProtocol.Unbind.class);
    assertThat(DeviceQueueProtocol.Control.class).isAssignableFrom(DeviceQueueProtocol.Drain.class);
  }

  private static Class<?> nested(Class<?> outer, String name) {
    return Arrays.stream(outer.getDeclaredClasses())
        .filter(c -> c.getSimpleName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError(outer.getSimpleName() + " has no " + name));
  }
}
