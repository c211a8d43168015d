package io.mqroute.cluster.guard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The guard over real sockets, in front of a stand-in for Artery's bind that records what reaches
 * it: well-framed bytes pass unchanged; a bad frame length ends the connection before the length
 * reaches the node; connections past max-pending and max-connections are refused as they come; one
 * that never completes its handshake is closed at the timeout; and each is counted.
 */
@Tag("integration")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ArteryGuardTest {
  private static final Duration TIMEOUT = Duration.ofMillis(400);
  private static final int MAX_FRAME = 1024;
  private ServerSocket node;
  private ArteryGuard guard;
  private final ConcurrentLinkedQueue<ByteArrayOutputStream> received =
      new ConcurrentLinkedQueue<>();
  private final List<Socket> sockets = new ArrayList<>();

  @AfterEach
  void close() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    if (guard != null) {
      guard.close();
    }
    if (node != null) {
      node.close();
    }
  }

  /** A sink on loopback that keeps every connection's bytes. */
  private InetSocketAddress startNode() throws IOException {
    node = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    Thread t =
        new Thread(
            () -> {
              while (!node.isClosed()) {
                try {
                  Socket s = node.accept();
                  ByteArrayOutputStream got = new ByteArrayOutputStream();
                  received.add(got);
                  Thread r =
                      new Thread(
                          () -> {
                            try (s;
                                InputStream in = s.getInputStream()) {
                              byte[] b = new byte[4096];
                              for (int n; (n = in.read(b)) >= 0; ) {
                                synchronized (got) {
                                  got.write(b, 0, n);
                                }
                              }
                            } catch (IOException ended) {
                              // reset by the guard
                            }
                          });
                  r.setDaemon(true);
                  r.start();
                } catch (IOException closed) {
                  return;
                }
              }
            });
    t.setDaemon(true);
    t.start();
    return (InetSocketAddress) node.getLocalSocketAddress();
  }

  private void start(int maxConnections, int maxPending) throws IOException {
    InetSocketAddress upstream = startNode();
    guard =
        ArteryGuard.bind(
            "127.0.0.1",
            0,
            new ArteryGuard.Settings(
                maxConnections,
                maxPending,
                TIMEOUT,
                Duration.ofSeconds(10),
                ArteryGuard.Settings.arteryTcp(List.of("AKKA".getBytes()), MAX_FRAME, 0)));
    guard.start(upstream);
  }

  private Socket connect() throws IOException {
    Socket s = new Socket();
    sockets.add(s);
    s.connect(new InetSocketAddress("127.0.0.1", guard.port()), 5_000);
    s.setSoTimeout(10_000);
    return s;
  }

  /** A new connection the guard ends at once: its reset may come before connect returns. */
  private boolean refused() throws IOException {
    Socket s;
    try {
      s = connect();
    } catch (java.net.SocketException reset) {
      return true;
    }
    return closed(s);
  }

  /** A frame of {@code length} zero bytes (just the length field if it is not in 0..64 KiB). */
  private static byte[] frame(int length) {
    int body = length >= 0 && length <= 65536 ? length : 0;
    ByteBuffer b = ByteBuffer.allocate(4 + body).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(length);
    return b.array();
  }

  private static final byte[] HEADER = {'A', 'K', 'K', 'A', 2};

  /** True if the guard ended the connection (end of stream or reset) before the socket timeout. */
  private static boolean closed(Socket s) throws IOException {
    try {
      return s.getInputStream().read() < 0;
    } catch (SocketTimeoutException open) {
      return false;
    } catch (IOException reset) {
      return true;
    }
  }

  private void awaitCount(String key, long n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (guard.counters().get(key) < n && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // poll, as awaitAssert does
    }
    assertThat(guard.counters()).containsEntry(key, n);
  }

  @Test
  void wellFramedBytesPassUnchangedAndTheConnectionIsEstablished() throws Exception {
    start(8, 4);
    byte[] f = frame(100);
    f[10] = 42;
    try (Socket s = connect()) {
      s.getOutputStream().write(HEADER);
      s.getOutputStream().write(f);
      awaitCount(ArteryGuard.ESTABLISHED, 1);
      s.setSoTimeout((int) TIMEOUT.toMillis() * 3);
      assertThat(closed(s))
          .as("an established connection outlives the handshake timeout")
          .isFalse();
    }
    ByteArrayOutputStream got = received.peek();
    assertThat(got).isNotNull();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (got.size() < HEADER.length + f.length && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000); // poll, as awaitAssert does
    }
    synchronized (got) {
      byte[] all = got.toByteArray();
      assertThat(all).hasSize(HEADER.length + f.length);
      assertThat(all[HEADER.length + 10]).isEqualTo((byte) 42);
    }
  }

  @Test
  void aBadLengthEndsTheConnectionBeforeTheNodeSeesIt() throws Exception {
    start(8, 4);
    for (int length : new int[] {-4, 0, MAX_FRAME + 1, Integer.MAX_VALUE}) {
      try (Socket s = connect()) {
        s.getOutputStream().write(HEADER);
        s.getOutputStream().write(frame(length), 0, 4);
        assertThat(closed(s)).as("length " + length).isTrue();
      }
    }
    try (Socket s = connect()) {
      s.getOutputStream().write(new byte[] {'A', 'K', 'K', 'A', 3}); // no large-message stream
      assertThat(closed(s)).as("stream 3").isTrue();
    }
    awaitCount(ArteryGuard.BAD_FRAMING, 5);
    for (ByteArrayOutputStream got : received) {
      synchronized (got) {
        assertThat(got.size()).as("at most the header reached the node").isLessThanOrEqualTo(5);
      }
    }
  }

  @Test
  void pastMaxPendingAndMaxConnectionsConnectionsAreRefusedAndIdleOnesTimeOut() throws Exception {
    start(3, 2);
    Socket idle1 = connect();
    Socket idle2 = connect();
    assertThat(refused()).as("past max-pending").isTrue();
    awaitCount(ArteryGuard.REFUSED_PENDING, 1);
    assertThat(closed(idle1)).as("closed at the handshake timeout").isTrue();
    assertThat(closed(idle2)).isTrue();
    awaitCount(ArteryGuard.HANDSHAKE_TIMEOUT, 2);
    // the guard counts a timeout before it closes the connection: until it has, the two still
    // count as pending and the next connection would be refused (reset)
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while ((guard.pendingConnections() > 0 || guard.openConnections() > 0)
        && System.nanoTime() < deadline) {
      java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
    }
    assertThat(guard.pendingConnections()).isZero();

    List<Socket> peers = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Socket s = connect();
      s.getOutputStream().write(HEADER);
      s.getOutputStream().write(frame(8));
      peers.add(s);
      awaitCount(ArteryGuard.ESTABLISHED, i + 1); // no longer pending
    }
    assertThat(refused()).as("past max-connections").isTrue();
    awaitCount(ArteryGuard.REFUSED_LIMIT, 1);
    assertThat(guard.openConnections()).isEqualTo(3);
    assertThat(guard.pendingConnections()).isZero();
    for (Socket s : peers) {
      s.close();
    }
  }

  @Test
  void overTlsTheFirstRecordMustBeAHandshake() throws Exception {
    InetSocketAddress upstream = startNode();
    guard =
        ArteryGuard.bind(
            "127.0.0.1",
            0,
            new ArteryGuard.Settings(
                8, 4, TIMEOUT, Duration.ofSeconds(10), ArteryGuard.Settings.tls()));
    guard.start(upstream);
    try (Socket s = connect()) {
      s.getOutputStream().write(new byte[] {23, 3, 3, 0, 5, 1, 2, 3, 4, 5}); // application data
      assertThat(closed(s)).isTrue();
    }
    try (Socket s = connect()) {
      s.getOutputStream().write(new byte[] {22, 3, 1, 0x7f, (byte) 0xff}); // 32 KiB record
      assertThat(closed(s)).isTrue();
    }
    awaitCount(ArteryGuard.BAD_FRAMING, 2);
  }
}
