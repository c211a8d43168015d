package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.load.LoadRunner;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Down;
import org.apache.pekko.cluster.typed.Subscribe;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * architecture.md §5a across processes: a host and two device nodes in JVMs of their own (this
 * module's test class path), this JVM as the load client. Device A holds every request (it never
 * completes one), device B answers at once; the host sends at most {@value #WINDOW} requests to a
 * queue and keeps the rest. Once A's two queues are full (seen on the host's {@code /status}), A is
 * killed with SIGKILL: exactly its {@code 2 x WINDOW} requests in flight end with ECONNABORTED, the
 * ones waiting for A on the host are re-routed to B, and everything else completes OK on B. Then A
 * comes back on the same port and is used again. Last, SIGTERM makes the host leave gracefully.
 *
 * <p>Bounded: every wait polls with a deadline; the processes are killed afterwards whatever
 * happened.
 */
@Tag("integration")
class MultiProcessFailoverTest {
  private static final int N = 1_000;
  private static final int CLIENT_WINDOW = 64;
  private static final int WINDOW = 8;
  private static final int DEVICE_A_FIRST_QUEUE = 0;
  private static final int DEVICE_B_FIRST_QUEUE = 16;
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration RUN = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final List<Process> processes = new ArrayList<>();
  // if this JVM is ended (timeout, Ctrl-C) before @AfterEach runs, the children must not outlive it
  private final Thread killChildren = new Thread(this::killAll, "kill-node-processes");
  // polls other processes with a deadline (TestProbe.awaitAssert), from a local system of its own
  private final ActorTestKit waiter = ActorTestKit.create("waiter");
  private ActorSystem<Void> client;

  @BeforeEach
  void killChildrenOnExit() {
    Runtime.getRuntime().addShutdownHook(killChildren);
  }

  private void killAll() {
    synchronized (processes) {
      processes.forEach(Process::destroyForcibly);
    }
  }

  @AfterEach
  void stopEverything() throws Exception {
    waiter.shutdownTestKit();
    if (client != null) {
      // first, while the nodes still run: a client whose peers are all killed under it cannot
      // complete its
      // leave and waits for the shutdown phases' timeouts (about 10 s)
      client.terminate();
      ClusterNode.awaitTermination(client, Duration.ofSeconds(30));
    }
    killAll();
    for (Process p : processes) {
      p.waitFor(30, TimeUnit.SECONDS);
    }
    Runtime.getRuntime().removeShutdownHook(killChildren);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /**
   * What every node of this test runs with: loopback, a seed, a role and faster failure detection.
   */
  private static String common(int port, int seedPort, String role) {
    // the cluster's keys: every process of this test is a mutual-TLS member
    return TestKeys.arteryLines()
        + """
        pekko.remote.artery.canonical.port = %d
        pekko.cluster.seed-nodes = ["pekko://mqroute@127.0.0.1:%d"]
        pekko.cluster.roles = [%s]
        # Four JVMs share a 2-core CI box: a stall of a few seconds must not make B (or the host) unreachable, or
        # its requests in flight end with ECONNABORTED and the exact counts below break. 4 s of pause still detects
        # the SIGKILLed device within ~5 s.
        pekko.cluster.failure-detector.heartbeat-interval = 200ms
        pekko.cluster.failure-detector.acceptable-heartbeat-pause = 4s
        # SBR must not down a survivor that stalled: the test never needs it, the dead A is replaced by its new
        # incarnation on the same port (or downed explicitly, see restartDeviceA), so it waits longer than the test
        pekko.cluster.split-brain-resolver.stable-after = 30s
        pekko.cluster.typed.receptionist.distributed-data.notify-subscribers-interval = 100ms
        pekko.loglevel = WARNING
        pekko.log-dead-letters = off
        pekko.log-dead-letters-during-shutdown = off
        """
            .formatted(port, seedPort, role);
  }

  private Process start(String name, NodeSettings.Role role, String hocon) throws IOException {
    String cp =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path log = Path.of("target", "multi-process", name + ".log");
    Files.createDirectories(log.getParent());
    ProcessBuilder pb =
        new ProcessBuilder(
                java,
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                cp,
                NodeProcessMain.class.getName(),
                role.name(),
                hocon)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    synchronized (processes) {
      Process p = pb.start();
      processes.add(p);
      return p;
    }
  }

  private static Process device(
      MultiProcessFailoverTest t, String name, int port, int seedPort, int firstQueue, String delay)
      throws IOException {
    return t.start(
        name,
        NodeSettings.Role.DEVICE,
        common(port, seedPort, "device")
            + """
        pekko.management.http.port = -1
        mqroute.cluster.device { first-queue = %d, queues = 2, ring-size = 64, service-delay = %s }
        """
                .formatted(firstQueue, delay));
  }

  private static JsonNode status(int managementPort) {
    try {
      HttpResponse<String> r =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort + "/status"))
                  .timeout(Duration.ofSeconds(2))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return r.statusCode() == 200 ? JSON.readTree(r.body()) : null;
    } catch (IOException e) {
      return null; // not listening yet
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /**
   * Polls the host's /status until {@code ok} holds, failing after {@code timeout} with the last
   * body.
   */
  private JsonNode awaitStatus(
      int managementPort, Duration timeout, String what, Predicate<JsonNode> ok) {
    JsonNode[] last = new JsonNode[1];
    try {
      return waiter
          .createTestProbe()
          .awaitAssert(
              timeout,
              Duration.ofMillis(50),
              () -> {
                last[0] = status(managementPort);
                assertThat(last[0] != null && ok.test(last[0])).isTrue();
                return last[0];
              });
    } catch (AssertionError e) {
      throw new AssertionError(
          "host /status did not show " + what + " within " + timeout + "; last: " + last[0]);
    }
  }

  private static int queueCount(JsonNode s, int from, int to) {
    int n = 0;
    for (JsonNode q : s.get("queues")) {
      int idx = queueIndex(q.get("queue").asText());
      if (idx >= from && idx < to) {
        n++;
      }
    }
    return n;
  }

  /** A queue's index from its path ({@code .../user/queue-<index>/...}). */
  private static int queueIndex(String path) {
    int at = path.indexOf("/queue-");
    int end = path.indexOf('/', at + 1);
    return Integer.parseInt(path.substring(at + 7, end < 0 ? path.length() : end));
  }

  /** Both queues with an index in [from, to) have {@code inFlight} requests sent to them. */
  private static boolean queuesFull(JsonNode s, int from, int to, int inFlight) {
    int full = 0;
    for (JsonNode q : s.get("queues")) {
      int idx = queueIndex(q.get("queue").asText());
      if (idx >= from && idx < to && q.get("in_flight").asInt() == inFlight) {
        full++;
      }
    }
    return full == 2;
  }

  // ---- the client: N requests, CLIENT_WINDOW in flight, one completion each ----

  interface ClientMsg {}

  record Reply(Completion completion) implements ClientMsg {}

  record Report(
      int completed, int duplicates, Map<Status, Integer> byStatus, int okOnA, int okOnB) {}

  private static Behavior<ClientMsg> client(
      ActorRef<Request> router, int n, ActorRef<Report> done) {
    return Behaviors.setup(
        ctx -> {
          ActorRef<Completion> self = ctx.messageAdapter(Completion.class, Reply::new);
          boolean[] answered = new boolean[n];
          Map<Status, Integer> byStatus = new EnumMap<>(Status.class);
          int[] c = new int[5]; // sent, completed, duplicates, okOnA, okOnB
          Runnable sendNext =
              () -> {
                int id = c[0]++;
                router.tell(
                    new Request(
                        id,
                        Op.READ,
                        1,
                        4096L * (id % 256),
                        4096,
                        true,
                        id % 4,
                        NanoClock.SYSTEM.nanoTime(),
                        self));
              };
          for (int i = 0; i < CLIENT_WINDOW && c[0] < n; i++) {
            sendNext.run();
          }
          return Behaviors.receive(ClientMsg.class)
              .onMessage(
                  Reply.class,
                  r -> {
                    int id = (int) r.completion().id();
                    if (answered[id]) {
                      c[2]++;
                      return Behaviors.same();
                    }
                    answered[id] = true;
                    c[1]++;
                    byStatus.merge(r.completion().status(), 1, Integer::sum);
                    if (r.completion().status() == Status.OK) {
                      c[r.completion().queue() >= DEVICE_B_FIRST_QUEUE ? 4 : 3]++;
                    }
                    if (c[0] < n) {
                      sendNext.run();
                    } else if (c[1] == n) {
                      done.tell(new Report(c[1], c[2], Map.copyOf(byStatus), c[3], c[4]));
                    }
                    return Behaviors.same();
                  })
              .build();
        });
  }

  /**
   * Starts A again on its old port, where the new incarnation replaces the dead one. That port was
   * free when the test began, but something else may have taken it since: then A starts on another
   * free port, and the dead incarnation is downed explicitly (SBR is too slow here on purpose, see
   * common()).
   */
  private void restartDeviceA(int oldPort, int hostPort) throws IOException {
    int port = oldPort;
    if (!isFree(oldPort)) {
      port = freePort();
      Cluster cluster = Cluster.get(client);
      for (Member m : cluster.state().getMembers()) {
        if (m.address().getPort().orElse(-1) == oldPort) {
          cluster.manager().tell(new Down(m.address()));
        }
      }
    }
    device(this, "device-a-again", port, hostPort, DEVICE_A_FIRST_QUEUE, "0s");
  }

  private static boolean isFree(int port) {
    try (ServerSocket s = new ServerSocket()) {
      s.setReuseAddress(true);
      s.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  @Test
  void aDeviceProcessKilledMidLoadEndsItsInFlightRequestsWithEconnabortedAndComesBackLater()
      throws Exception {
    long t0 = System.nanoTime();
    int hostPort = freePort();
    int devicePortA = freePort();
    int devicePortB = freePort();
    int management = freePort();
    Process host =
        start(
            "host",
            NodeSettings.Role.HOST,
            common(hostPort, hostPort, "host")
                + """
        pekko.management.http.port = %d
        mqroute.cluster.host.queue-window = %d
        # A never answers: with suspicion it would be out of the masks before the kill; this test is about
        # membership (SuspicionTest and FaultsUnderLoadTest have suspicion)
        mqroute.cluster.host.suspect-after = off
        """
                    .formatted(management, WINDOW));
    Process deviceA = device(this, "device-a", devicePortA, hostPort, DEVICE_A_FIRST_QUEUE, "10m");
    device(this, "device-b", devicePortB, hostPort, DEVICE_B_FIRST_QUEUE, "0s");

    awaitStatus(management, START, "four queues", s -> queueCount(s, 0, 100) == 4);
    long formed = System.nanoTime();

    Config clientConfig =
        ConfigFactory.parseString(
                common(0, hostPort, "client")
                    + """
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        """)
            .withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
            .withFallback(ConfigFactory.load())
            .resolve();
    client = ClusterNode.start(NodeSettings.Role.CLIENT, clientConfig).system();
    ActorTestKit kit = ActorTestKit.create(client);
    ActorRef<Request> router = LoadRunner.awaitRouters(client, START).get(0);

    TestProbe<Report> done = kit.createTestProbe();
    kit.spawn(client(router, N, done.ref()), "load");
    // A never completes: its two queues fill to the window, and the host keeps the rest of A's
    // share waiting
    awaitStatus(
        management,
        RUN,
        "device A's queues full",
        s -> queuesFull(s, 0, DEVICE_B_FIRST_QUEUE, WINDOW));
    long killed = System.nanoTime();
    deviceA.destroyForcibly();

    Report r = done.expectMessageClass(Report.class, RUN);
    long finished = System.nanoTime();
    System.out.printf(
        "MultiProcessFailoverTest: cluster up in %d ms; %d requests: %s (OK on A %d, on B %d); all"
            + " ended %d ms after SIGKILL%n",
        (formed - t0) / 1_000_000,
        r.completed(),
        r.byStatus(),
        r.okOnA(),
        r.okOnB(),
        (finished - killed) / 1_000_000);
    assertThat(r.completed()).isEqualTo(N);
    assertThat(r.duplicates()).as("duplicate completions").isZero();
    assertThat(r.byStatus().keySet()).containsOnly(Status.OK, Status.ECONNABORTED);
    assertThat(r.byStatus().get(Status.ECONNABORTED))
        .as("A's requests in flight: 2 queues x window")
        .isEqualTo(2 * WINDOW);
    assertThat(r.okOnA()).isZero();
    assertThat(r.okOnB())
        .as("the waiting ones were re-routed, the rest went to B")
        .isEqualTo(N - 2 * WINDOW);

    // A comes back (a new incarnation) and gets requests again
    restartDeviceA(devicePortA, hostPort);
    awaitStatus(
        management, START, "A's queues back", s -> queueCount(s, 0, DEVICE_B_FIRST_QUEUE) == 2);
    TestProbe<Report> again = kit.createTestProbe();
    kit.spawn(client(router, 200, again.ref()), "load-again");
    Report r2 = again.expectMessageClass(Report.class, RUN);
    System.out.printf(
        "MultiProcessFailoverTest: after A came back: %s (OK on A %d, on B %d); test %d ms%n",
        r2.byStatus(), r2.okOnA(), r2.okOnB(), (System.nanoTime() - t0) / 1_000_000);
    assertThat(r2.byStatus()).containsOnlyKeys(Status.OK);
    assertThat(r2.okOnA()).as("the device that came back is used").isPositive();

    // SIGTERM runs coordinated shutdown: the host leaves (members see it exit, not crash) and its
    // JVM ends
    TestProbe<ClusterEvent.MemberExited> exited = kit.createTestProbe();
    Cluster.get(client)
        .subscriptions()
        .tell(Subscribe.create(exited.ref(), ClusterEvent.MemberExited.class));
    host.destroy();
    ClusterEvent.MemberExited e = exited.expectMessageClass(ClusterEvent.MemberExited.class, RUN);
    assertThat(e.member().address().getPort().get()).isEqualTo(hostPort);
    assertThat(host.waitFor(RUN.toSeconds(), TimeUnit.SECONDS)).as("the host's JVM ended").isTrue();
    System.out.printf(
        "MultiProcessFailoverTest: host left on SIGTERM; test %d ms%n",
        (System.nanoTime() - t0) / 1_000_000);
  }
}
