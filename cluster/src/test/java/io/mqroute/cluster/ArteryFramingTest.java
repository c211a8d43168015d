package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A process that speaks garbage to a node's port: a negative frame length (Artery's TCP framing in
 * Pekko 1.2.1 and 1.7.0 has no bound on it and loops for good: a busy core, a WARN line per
 * iteration, gigabytes of buffers), a 2 GiB length, frames past maximum-frame-size, and 10,000
 * seeded random frames. Nodes run Artery over mutual TLS, so none of it reaches the framing: the
 * handshake fails and the node closes the connection, and a load between two members goes on with
 * no request lost. (Over plain tcp both tests fail on 1.7.0; --plain-tcp is loopback only.)
 */
@Tag("integration")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ArteryFramingTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final byte[] MAGIC = {'A', 'K', 'K', 'A'};
  private ActorSystem<Void> node;
  private ActorSystem<Void> peer;

  /** A member of the test cluster: Artery over mutual TLS, as every node by default. */
  static Config remote() {
    return remote(TestKeys.artery());
  }

  static Config remote(Config transport) {
    return transport
        .withFallback(
            ConfigFactory.parseString(
                """
            pekko.actor.provider = remote
            pekko.remote.artery.canonical.hostname = 127.0.0.1
            pekko.remote.artery.canonical.port = 0
            pekko.remote.artery.advanced.maximum-frame-size = 72KiB
            pekko.loglevel = ERROR
            pekko.log-dead-letters = off
            pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
            """))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  @AfterEach
  void shutDown() {
    for (ActorSystem<Void> s : Arrays.asList(peer, node)) {
      if (s != null) {
        s.terminate();
      }
    }
    for (ActorSystem<Void> s : Arrays.asList(peer, node)) {
      if (s != null) {
        ClusterNode.awaitTermination(s, WAIT);
      }
    }
  }

  /** Artery TCP's connection header: the magic and the stream id (2 = ordinary messages). */
  private static byte[] header() {
    return new byte[] {'A', 'K', 'K', 'A', 2};
  }

  private static byte[] frameLength(int length) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(length).array();
  }

  /**
   * Sends {@code bytes} on a fresh connection and waits for the node to close it (end of stream or
   * reset), at most {@code wait}.
   *
   * @return true if the node closed the connection in time
   */
  private static boolean nodeCloses(int port, byte[]... bytes) throws IOException {
    return nodeCloses(port, WAIT, bytes);
  }

  private static boolean nodeCloses(int port, Duration wait, byte[]... bytes) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      s.setSoTimeout((int) wait.toMillis());
      OutputStream out = s.getOutputStream();
      try {
        for (byte[] b : bytes) {
          out.write(b);
        }
        out.flush();
      } catch (IOException closedWhileWriting) {
        return true;
      }
      InputStream in = s.getInputStream();
      try {
        while (in.read() >= 0) {
          // the node sends nothing on an inbound connection; drain until it closes
        }
        return true;
      } catch (SocketTimeoutException stillOpen) {
        return false;
      } catch (IOException reset) {
        return true;
      }
    }
  }

  private static int port(ActorSystem<Void> system) {
    return system.address().getPort().get();
  }

  /** A round trip of {@code n} requests from the peer to the node's inbox and back. */
  private static void roundTrips(
      int n,
      TestProbe<Request> inbox,
      ActorRef<Request> remoteInbox,
      TestProbe<Completion> replies) {
    for (int i = 0; i < n; i++) {
      remoteInbox.tell(new Request(i, Op.READ, 1, 0, 4096, true, 0, 0, replies.ref()));
    }
    for (int i = 0; i < n; i++) {
      Request got = inbox.receiveMessage(WAIT);
      got.replyTo().tell(new Completion(got.id(), Status.OK, 0, 0, 0, 0));
    }
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(replies.receiveMessage(WAIT).id());
    }
    assertThat(ids).hasSize(n).doesNotHaveDuplicates();
  }

  @Test
  void badFramesCloseTheirConnectionAndTheNodeKeepsServing() throws IOException {
    node = ActorSystem.create(Behaviors.empty(), "mqroute", remote());
    peer = ActorSystem.create(Behaviors.empty(), "mqroute", remote());
    TestProbe<Request> inbox = ActorTestKit.create(node).createTestProbe();
    TestProbe<Completion> replies = ActorTestKit.create(peer).createTestProbe();
    ActorRef<Request> remoteInbox =
        ActorRefResolver.get(peer)
            .resolveActorRef(ActorRefResolver.get(node).toSerializationFormat(inbox.ref()));
    roundTrips(50, inbox, remoteInbox, replies);
    int port = port(node);

    // the 9-byte repro: a negative frame length
    assertThat(nodeCloses(port, header(), frameLength(-4))).as("length -4").isTrue();
    roundTrips(50, inbox, remoteInbox, replies);
    // lengths the node must not allocate for
    assertThat(nodeCloses(port, header(), frameLength(Integer.MAX_VALUE))).as("2 GiB").isTrue();
    assertThat(nodeCloses(port, header(), frameLength(800 << 20), new byte[4096]))
        .as("800 MiB")
        .isTrue();
    assertThat(nodeCloses(port, header(), frameLength(73 * 1024 + 1), new byte[8192]))
        .as("past maximum-frame-size")
        .isTrue();
    assertThat(nodeCloses(port, MAGIC, new byte[] {9, 0, 0, 0, 0})).as("bad stream id").isTrue();
    assertThat(nodeCloses(port, "GET / HTTP/1.1\r\n\r\n".getBytes())).as("not Artery").isTrue();
    roundTrips(50, inbox, remoteInbox, replies);
  }

  /**
   * 10,000 seeded malformed frames on 100 connections: random lengths (negative, zero, huge, small
   * with random bodies), then a round trip between the members after each connection.
   */
  @Test
  void tenThousandRandomFramesLoseNothing() throws IOException {
    node = ActorSystem.create(Behaviors.empty(), "mqroute", remote());
    peer = ActorSystem.create(Behaviors.empty(), "mqroute", remote());
    TestProbe<Request> inbox = ActorTestKit.create(node).createTestProbe();
    TestProbe<Completion> replies = ActorTestKit.create(peer).createTestProbe();
    ActorRef<Request> remoteInbox =
        ActorRefResolver.get(peer)
            .resolveActorRef(ActorRefResolver.get(node).toSerializationFormat(inbox.ref()));
    int port = port(node);
    SplittableRandom random = new SplittableRandom(15);
    int frames = 0;
    int closedOrDone = 0;
    for (int connection = 0; connection < 100; connection++) {
      List<byte[]> bytes = new ArrayList<>();
      bytes.add(header());
      for (int f = 0; f < 100; f++, frames++) {
        int length =
            switch (random.nextInt(5)) {
              case 0 -> -random.nextInt(1, Integer.MAX_VALUE);
              case 1 -> random.nextInt(80 * 1024, Integer.MAX_VALUE);
              case 2 -> 0;
              default -> random.nextInt(1, 256);
            };
        bytes.add(frameLength(length));
        byte[] body = new byte[Math.max(0, Math.min(length, 256))];
        random.nextBytes(body);
        bytes.add(body);
      }
      if (nodeCloses(port, Duration.ofSeconds(5), bytes.toArray(byte[][]::new))) {
        closedOrDone++;
      }
      roundTrips(5, inbox, remoteInbox, replies);
    }
    assertThat(frames).isEqualTo(10_000);
    assertThat(closedOrDone).as("connections the node closed").isEqualTo(100);
  }
}
