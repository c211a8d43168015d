package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The node link (NodeLink) between a real host and device node: the request path goes over it,
 * every request ends once, and what a stranger sends to its port closes that connection only.
 */
@Tag("integration")
class NodeLinkTest {
  private static final Duration WAIT = Duration.ofSeconds(60);
  private final List<ActorSystem<Void>> nodes = new ArrayList<>();

  private static Config node(String role, String extra) {
    return ConfigFactory.parseString(
            """
        pekko.remote.artery.canonical.port = 0
        pekko.cluster.roles = [%s]
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.management.http.port = -1
        pekko.cluster.typed.receptionist.distributed-data.notify-subscribers-interval = 100ms
        pekko.loglevel = WARNING
        pekko.log-dead-letters = off
        mqroute.cluster.device.queues = 2
        """
                    .formatted(role)
                + extra)
        .withFallback(TestKeys.artery())
        .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  @AfterEach
  void stop() {
    nodes.forEach(ActorSystem::terminate);
    nodes.forEach(n -> ClusterNode.awaitTermination(n, WAIT));
  }

  /** A host and a device joined; returns the host's router once it lists both device queues. */
  private ActorRef<HostRouterProtocol.Command> cluster(String extra) {
    return cluster(extra, extra);
  }

  private ActorRef<HostRouterProtocol.Command> cluster(String hostExtra, String deviceExtra) {
    ActorSystem<Void> host =
        ClusterNode.start(NodeSettings.Role.HOST, node("host", hostExtra)).system();
    nodes.add(host);
    ActorSystem<Void> device =
        ClusterNode.start(NodeSettings.Role.DEVICE, node("device", deviceExtra)).system();
    nodes.add(device);
    Address a = Cluster.get(host).selfMember().address();
    nodes.forEach(n -> Cluster.get(n).manager().tell(Join.create(a)));
    ActorTestKit kit = ActorTestKit.create(host);
    ActorRef<HostRouterProtocol.Command> router =
        kit.spawn(HostRouter.create(HostRouterSettings.defaults()), "router");
    TestProbe<HostRouterProtocol.Slots> slots = kit.createTestProbe();
    slots.awaitAssert(
        WAIT,
        () -> {
          router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
          assertThat(slots.receiveMessage(WAIT).queues().stream().filter(q -> q != null).count())
              .isEqualTo(2);
          return null;
        });
    // a TLS handshake on a cold JVM can take a second; until the link is up, messages use Artery
    slots.awaitAssert(
        WAIT, () -> assertThat(counter(host, "peers")).isEqualTo(1L).as("host linked"));
    slots.awaitAssert(
        WAIT, () -> assertThat(counter(device, "peers")).isEqualTo(1L).as("device linked"));
    return router;
  }

  /** {@code n} reads through {@code router}, 32 at a time: the statuses, each request once. */
  private List<Status> reads(ActorRef<HostRouterProtocol.Command> router, int n) {
    ActorTestKit kit = ActorTestKit.create(nodes.get(0));
    TestProbe<Completion> replies = kit.createTestProbe();
    Set<Long> seen = new HashSet<>();
    List<Status> out = new ArrayList<>();
    for (int sent = 0; sent < n; ) {
      int batch = Math.min(32, n - sent);
      for (int i = 0; i < batch; i++, sent++) {
        router.tell(
            new HostRouterProtocol.Submit(
                new Request(
                    sent,
                    Op.READ,
                    1,
                    0,
                    4096,
                    true,
                    sent,
                    NanoClock.SYSTEM.nanoTime(),
                    replies.ref())));
      }
      for (int i = 0; i < batch; i++) {
        Completion c = replies.receiveMessage(WAIT);
        assertThat(seen.add(c.id())).as("request %d ended twice", c.id()).isTrue();
        out.add(c.status());
      }
    }
    replies.expectNoMessage(Duration.ofMillis(200));
    return out;
  }

  private static long counter(ActorSystem<?> system, String name) {
    return NodeLink.attached(system).orElseThrow().counters().get(name);
  }

  @Test
  void theRequestPathGoesOverTheLinkAndEveryRequestEndsOnce() {
    ActorRef<HostRouterProtocol.Command> router = cluster("");
    long t0 = System.nanoTime();
    assertThat(reads(router, 2_000)).containsOnly(Status.OK).hasSize(2_000);
    System.out.printf("NodeLinkTest: 2,000 reads in %d ms%n", (System.nanoTime() - t0) / 1_000_000);
    ActorSystem<Void> host = nodes.get(0);
    ActorSystem<Void> device = nodes.get(1);
    // every request batch and completion batch over the link (2,000 requests in at least 63 each)
    assertThat(counter(host, "sent")).isGreaterThanOrEqualTo(2_000 / 32);
    assertThat(counter(device, "received")).isEqualTo(counter(host, "sent"));
    assertThat(counter(device, "sent")).isGreaterThanOrEqualTo(2_000 / 32);
    assertThat(counter(host, "received")).isEqualTo(counter(device, "sent"));
  }

  @Test
  void aBoringSslNodeAndAJdkTlsNodeServeTheSamePath() {
    // netty-tcnative's BoringSSL loads on this project's CI and dev machines (x86_64 Linux);
    // elsewhere both nodes run the JDK's engine and this is the JDK-only case
    mixedPairServes(
        "mqroute.cluster.link.tls-provider = jdk",
        "tls-openssl",
        io.netty.handler.ssl.OpenSsl.isAvailable());
  }

  @Test
  void aNativeEpollNodeAndAJdkSelectorNodeServeTheSamePath() {
    // Netty's native epoll loads on this project's CI and dev machines (x86_64 Linux); elsewhere
    // both nodes fall back to the JDK's selector and this is the NIO-only case
    mixedPairServes(
        "mqroute.cluster.link.native-epoll = off",
        "native-epoll",
        io.netty.channel.epoll.Epoll.isAvailable());
  }

  /** A host with the default and a device with {@code deviceSetting} off: the path still works. */
  private void mixedPairServes(String deviceSetting, String counter, boolean hostHasIt) {
    ActorRef<HostRouterProtocol.Command> router = cluster("", "\n" + deviceSetting + "\n");
    ActorSystem<Void> host = nodes.get(0);
    ActorSystem<Void> device = nodes.get(1);
    assertThat(counter(host, counter)).isEqualTo(hostHasIt ? 1L : 0L);
    assertThat(counter(device, counter)).isZero();
    assertThat(reads(router, 500)).containsOnly(Status.OK).hasSize(500);
    assertThat(counter(device, "received")).isPositive();
    assertThat(counter(host, "received")).isPositive();
  }

  @Test
  void aStrangerOnTheLinkPortIsClosedAndTheNodeServesOn() throws IOException {
    ActorRef<HostRouterProtocol.Command> router =
        cluster(
            "\npekko.remote.artery.transport = tcp\nmqroute.cluster.link { handshake-timeout ="
                + " 500ms, max-connections = 4 }\n");
    ActorSystem<Void> device = nodes.get(1);
    int port = linkPort(device);
    long refusedBefore = counter(device, "refused");
    // a frame longer than the maximum
    try (Socket s = connect(port)) {
      new DataOutputStream(s.getOutputStream()).writeInt(Integer.MAX_VALUE);
      assertClosed(s);
    }
    // a connection that never says who it is
    try (Socket s = connect(port)) {
      assertClosed(s);
    }
    // a message before HELLO
    try (Socket s = connect(port)) {
      frame(s, 2, "pekko://mqroute@127.0.0.1:1/user/x".getBytes(StandardCharsets.UTF_8));
      assertClosed(s);
    }
    // HELLO, then a message to an actor of another node (the link relays to nobody)
    try (Socket s = connect(port)) {
      frame(s, 1, "pekko://mqroute@127.0.0.1:1".getBytes(StandardCharsets.UTF_8));
      byte[] path = "pekko://mqroute@127.0.0.1:1/user/x".getBytes(StandardCharsets.UTF_8);
      byte[] body = new byte[2 + path.length + 1];
      body[0] = (byte) (path.length >> 8);
      body[1] = (byte) path.length;
      System.arraycopy(path, 0, body, 2, path.length);
      frame(s, 2, body);
      assertClosed(s);
    }
    assertThat(counter(device, "refused") - refusedBefore).isEqualTo(4);
    // more connections at once than allowed: the ones beyond are closed as they are accepted
    List<Socket> held = new ArrayList<>();
    try {
      for (int i = 0; i < 6; i++) {
        held.add(connect(port));
      }
      int closed = 0;
      for (Socket s : held) {
        s.setSoTimeout(100);
        try {
          closed += s.getInputStream().read() == -1 ? 1 : 0;
        } catch (java.net.SocketTimeoutException e) {
          // still open
        } catch (SocketException e) {
          closed++;
        }
      }
      // 6 beyond max-connections = 4 (the host's own link may hold one more of them)
      assertThat(closed).isGreaterThanOrEqualTo(2);
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
    assertThat(reads(router, 200)).containsOnly(Status.OK);
  }

  @Test
  void overTlsGarbageFailsTheHandshakeAndTheNodeServesOn() throws IOException {
    ActorRef<HostRouterProtocol.Command> router = cluster("");
    ActorSystem<Void> device = nodes.get(1);
    long refusedBefore = counter(device, "refused");
    try (Socket s = connect(linkPort(device))) {
      frame(s, 1, "pekko://mqroute@127.0.0.1:1".getBytes(StandardCharsets.UTF_8));
      assertClosed(s);
    }
    assertThat(counter(device, "refused")).isGreaterThan(refusedBefore);
    assertThat(reads(router, 200)).containsOnly(Status.OK);
    assertThat(counter(nodes.get(0), "sent")).isPositive();
  }

  private static int linkPort(ActorSystem<?> system) {
    return Cluster.get(system).selfMember().getRoles().stream()
        .filter(r -> r.startsWith("mqroute-link-"))
        .map(r -> Integer.parseInt(r.substring("mqroute-link-".length())))
        .findFirst()
        .orElseThrow();
  }

  private static Socket connect(int port) throws IOException {
    Socket s = new Socket();
    s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
    return s;
  }

  private static void frame(Socket s, int kind, byte[] body) throws IOException {
    DataOutputStream out = new DataOutputStream(s.getOutputStream());
    out.writeInt(1 + body.length);
    out.writeByte(kind);
    out.write(body);
    out.flush();
  }

  /** The node closes {@code s} (a read sees its end) within the wait. */
  private static void assertClosed(Socket s) throws IOException {
    s.setSoTimeout((int) WAIT.toMillis());
    InputStream in = s.getInputStream();
    try {
      while (in.read() != -1) {
        // a TLS alert or whatever the node still sends before it closes
      }
    } catch (SocketException e) {
      // reset: closed too
    }
  }
}
