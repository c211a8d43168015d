package io.mqroute.nbd;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Where the NBD server listens and what it bounds.
 *
 * @param host the address to bind (loopback unless the caller allowed otherwise)
 * @param port the TCP port (0: any free port; 10809 is NBD's)
 * @param exportName the export's name ({@code ""}, the default export, selects it too)
 * @param maxInFlight per connection, requests read and not yet answered on the socket: at the bound
 *     the server stops reading the socket (TCP backpressure), so one connection holds at most this
 *     many payloads of {@link io.mqroute.protocol.Request#MAX_DATA} bytes
 * @param maxConnections connections at once; more are closed as they arrive
 * @param handshakeTimeout how long a client may take from connecting to the transmission phase
 * @param maxOptions the most options in one handshake
 */
public record NbdServerSettings(
    String host,
    int port,
    String exportName,
    int maxInFlight,
    int maxConnections,
    Duration handshakeTimeout,
    int maxOptions) {
  /** NBD's IANA port. */
  public static final int DEFAULT_PORT = 10809;

  /**
   * 128 requests in flight per connection (fio's iodepth up to 128 and qemu's 16 are never held
   * back), 16 connections, 10 s for a handshake, 64 options.
   */
  public static NbdServerSettings loopback(int port) {
    return new NbdServerSettings("127.0.0.1", port, "", 128, 16, Duration.ofSeconds(10), 64);
  }

  public NbdServerSettings {
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be 0..65535, was " + port);
    }
    if (exportName.getBytes(StandardCharsets.UTF_8).length > NbdWire.MAX_STRING) {
      throw new IllegalArgumentException("export name over " + NbdWire.MAX_STRING + " bytes");
    }
    if (maxInFlight < 1 || maxConnections < 1 || maxOptions < 1) {
      throw new IllegalArgumentException("in-flight, connection and option bounds must be >= 1");
    }
    if (handshakeTimeout.isNegative() || handshakeTimeout.isZero()) {
      throw new IllegalArgumentException("handshake timeout must be > 0");
    }
  }

  public NbdServerSettings withMaxInFlight(int n) {
    return new NbdServerSettings(
        host, port, exportName, n, maxConnections, handshakeTimeout, maxOptions);
  }

  public NbdServerSettings withHandshakeTimeout(Duration d) {
    return new NbdServerSettings(
        host, port, exportName, maxInFlight, maxConnections, d, maxOptions);
  }

  /** True when {@code host} names only loopback addresses (127.0.0.0/8, ::1, localhost). */
  public static boolean isLoopback(String host) {
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (!a.isLoopbackAddress()) {
          return false;
        }
      }
      return true;
    } catch (UnknownHostException e) {
      return false;
    }
  }
}
