package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Issue #16 item 4: each actor protocol of the cluster shells keeps the request path (data plane)
 * and the rest (control plane: membership, node loss, drains, reports) apart. A message is one or
 * the other by its type, checked by the compiler through sealed interfaces (ArchitectureTest pins
 * that every protocol is built that way); this test pins which side the path's messages are on.
 */
class ProtocolPlanesTest {
  @Test
  void theRequestPathIsData() {
    assertThat(HostRouterProtocol.Data.class)
        .isAssignableFrom(HostRouterProtocol.SubmitBatch.class)
        .isAssignableFrom(HostRouterProtocol.Finished.class);
    assertThat(RemoteQueueProtocol.Data.class)
        .isAssignableFrom(RemoteQueueProtocol.Routed.class)
        .isAssignableFrom(RemoteQueueProtocol.RoutedAll.class)
        .isAssignableFrom(RemoteQueueProtocol.FromDevice.class);
    assertThat(DeviceQueueProtocol.Data.class)
        .isAssignableFrom(DeviceQueueProtocol.SubmitBatch.class);
    assertThat(RemoteQueueProtocol.Control.class)
        .isAssignableFrom(RemoteQueueProtocol.DeviceDraining.class)
        .isAssignableFrom(RemoteQueueProtocol.Unbind.class);
    assertThat(DeviceQueueProtocol.Control.class).isAssignableFrom(DeviceQueueProtocol.Drain.class);
  }
}
