package io.mqroute.protocol;

/**
 * A host's keep-alive to a client whose requests it holds but has answered none of for a while
 * (they wait on a slow or silent device): the client measures the host's silence, not the devices',
 * so its host timeout can be short without taking a device fault for a lost host.
 *
 * @param held how many of this client's requests the host holds (diagnostics only)
 */
public record HostAlive(int held) implements WireMessage {
  public HostAlive {
    if (held < 0) {
      throw new IllegalArgumentException("held must be >= 0, was " + held);
    }
  }
}
