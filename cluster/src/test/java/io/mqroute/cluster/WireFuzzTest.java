package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.bench.ClosedLoopClient;
import io.mqroute.cluster.bench.ClosedLoopClientProtocol;
import io.mqroute.cluster.guard.ArteryGuard;
import io.mqroute.cluster.load.LoadRunner;
import io.mqroute.cluster.mgmt.NodeReport;
import io.mqroute.metrics.LogLineCounter;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Seeded malformed input against real nodes over real sockets (issue #15's done-when: at least
 * 10,000 malformed frames, 0 hangs, 0 traces, 0 crashes): a host and a device node started as
 * {@code mqroute node} starts them ({@link ClusterNode#start}, so with the Artery guard), a load
 * through them (host router to the device's queues and back) the whole time, and meanwhile
 *
 * <ul>
 *   <li>plain tcp: {@value #ARTERY_TCP_FRAMES} generated Artery TCP frames on both nodes' ports
 *       (wrong magics and stream ids, negative, zero, oversized and huge lengths, cut-off frames,
 *       random and envelope-like bodies), and a flood of idle connections;
 *   <li>TLS: {@value #TLS_RECORDS} TLS records (garbage, a real ClientHello mutated, cut off or
 *       followed by garbage), real TLS clients without the cluster's certificate, the idle flood,
 *       and {@value #KRYO_MESSAGES} mutated Kryo messages from a peer that holds the cluster's
 *       certificate, to a device queue.
 * </ul>
 *
 * Then: the load had 0 errors, every connection the node had to close was closed (none hung), the
 * node still serves, no deadlock, a bounded number of threads and of heap after GC, and the log has
 * no stack trace and at most {@value #LOG_LINES_MAX} lines; /metrics counts each kind of refusal.
 * Each phase is bounded in time ({@link #FUZZ_BUDGET}).
 */
@Tag("integration")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class WireFuzzTest {
  private static final long SEED = 15;

  /** Generated frames on the plain-tcp nodes. */
  static final int ARTERY_TCP_FRAMES = 5_000;

  /** Generated TLS records on the TLS nodes (real handshakes without the certificate apart). */
  static final int TLS_RECORDS = 3_000;

  /** Mutated Kryo messages from a certificate holder. */
  static final int KRYO_MESSAGES = 2_000;

  /** The most log lines (WARN and above) one phase may cause. */
  static final int LOG_LINES_MAX = 60;

  /** How much more heap (after GC) the node may hold after a phase than before it. */
  static final long HEAP_GROWTH_MAX = 96L << 20;

  /** What a phase may take, fuzz and load together. */
  static final Duration FUZZ_BUDGET = Duration.ofSeconds(50);

  /**
   * Short, so that the cut-off handshakes end within the test's time, and long enough for a
   * member's own handshake on a starved 2-core runner (1 s cut some at startup there).
   */
  private static final Duration HANDSHAKE_TIMEOUT = Duration.ofSeconds(2);

  /** A malformed connection the node has not closed within this long hangs. */
  private static final Duration HANG = HANDSHAKE_TIMEOUT.plusSeconds(8);

  private static final int MAX_PENDING = 64;
  private static final int IDLE_FLOOD = 120;

  /**
   * Real TLS handshakes without the cluster's key (half with another cluster's, half with none).
   */
  private static final int STRANGERS = 200;

  /** Fuzz connections at once: below max-pending, so that members can always connect. */
  private static final int CONCURRENT = 40;

  private static final int MAX_FRAME = 72 * 1024;
  private static final Duration WAIT = Duration.ofSeconds(30);

  private ClusterNode.Started host;
  private ClusterNode.Started device;
  private ActorSystem<Void> garbage;
  private final List<Socket> held = new ArrayList<>();
  private ExecutorService pool;

  @AfterEach
  void shutDown() throws IOException {
    if (pool != null) {
      pool.shutdownNow();
    }
    for (Socket s : held) {
      s.close();
    }
    List<ActorSystem<Void>> systems = new ArrayList<>();
    for (ClusterNode.Started n : new ClusterNode.Started[] {device, host}) {
      if (n != null) {
        systems.add(n.system());
      }
    }
    if (garbage != null) {
      systems.add(garbage);
    }
    systems.forEach(ActorSystem::terminate);
    systems.forEach(s -> ClusterNode.awaitTermination(s, WAIT));
  }

  private static Config node(String role, boolean tls) {
    Config c =
        ConfigFactory.parseString(
            """
        pekko.remote.artery.canonical.port = 0
        pekko.cluster.seed-nodes = []
        pekko.cluster.roles = [%s]
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.management.http.port = -1
        pekko.loglevel = WARNING
        mqroute.cluster.device.queues = 2
        mqroute.cluster.host.suspect-after = 3s
        mqroute.cluster.inbound.handshake-timeout = %dms
        mqroute.cluster.inbound.max-pending = %d
        """
                .formatted(role, HANDSHAKE_TIMEOUT.toMillis(), MAX_PENDING));
    c =
        c.withFallback(
            tls
                ? TestKeys.artery()
                : ConfigFactory.parseString("pekko.remote.artery.transport = tcp"));
    return c.withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  private ActorRef<Request> startCluster(boolean tls) throws Exception {
    host = ClusterNode.start(NodeSettings.Role.HOST, node("host", tls));
    device = ClusterNode.start(NodeSettings.Role.DEVICE, node("device", tls));
    var seed = Cluster.get(host.system()).selfMember().address();
    Cluster.get(host.system()).manager().tell(Join.create(seed));
    Cluster.get(device.system()).manager().tell(Join.create(seed));
    ActorRef<Request> entry = LoadRunner.awaitRouters(host.system(), WAIT).get(0);
    // the router reaches the device's queues once they are registered: a batch that ends OK
    TestProbe<Object> p = ActorTestKit.create(host.system()).createTestProbe();
    p.awaitAssert(
        WAIT,
        () -> {
          assertThat(batch(entry, 100, "warmup-" + System.nanoTime()).errors()).isZero();
          return null;
        });
    System.out.printf("cluster up: guards %s / %s%n", guardCounters(host), guardCounters(device));
    return entry;
  }

  private ClosedLoopClientProtocol.Report batch(ActorRef<Request> entry, long n, String name)
      throws Exception {
    ActorSystem<Void> s = host.system();
    ActorRef<ClosedLoopClientProtocol.Command> client =
        s.systemActorOf(ClosedLoopClient.create(entry, n, 16, 1 << 20), name, Props.empty());
    return AskPattern.<ClosedLoopClientProtocol.Command, ClosedLoopClientProtocol.Report>ask(
            client, ClosedLoopClientProtocol.Start::new, WAIT, s.scheduler())
        .toCompletableFuture()
        .get(WAIT.toSeconds() + 5, TimeUnit.SECONDS);
  }

  /** The load: batches of 500 requests through the host router until told to stop. */
  private final class Load implements AutoCloseable {
    final AtomicBoolean stop = new AtomicBoolean();
    final AtomicLong ok = new AtomicLong();
    final AtomicLong errors = new AtomicLong();
    final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    final Thread thread;

    Load(ActorRef<Request> entry) {
      thread =
          new Thread(
              () -> {
                for (int i = 0; !stop.get(); i++) {
                  try {
                    ClosedLoopClientProtocol.Report r = batch(entry, 500, "fuzz-load-" + i);
                    ok.addAndGet(r.ok());
                    errors.addAndGet(r.errors());
                  } catch (Exception e) {
                    failures.add(e);
                    return;
                  }
                }
              },
              "fuzz-load");
      thread.start();
    }

    @Override
    public void close() throws InterruptedException {
      stop.set(true);
      thread.join(WAIT.toMillis() * 2);
    }
  }

  /** What happened to the fuzz connections of a phase. */
  private record Tally(long frames, long connections, long closedByNode, List<String> hung) {}

  /**
   * Runs the scripts, {@link #CONCURRENT} connections at a time; a malformed one must be closed by
   * the node within {@link #HANG}.
   */
  private Tally run(List<FuzzFrames.Script> scripts, List<Integer> ports) throws Exception {
    pool = Executors.newFixedThreadPool(CONCURRENT);
    List<Future<Boolean>> results = new ArrayList<>();
    for (int i = 0; i < scripts.size(); i++) {
      FuzzFrames.Script s = scripts.get(i);
      int port = ports.get(i % ports.size());
      results.add(pool.submit(() -> closedByNode(port, s)));
    }
    long frames = 0;
    long closed = 0;
    List<String> hung = new ArrayList<>();
    for (int i = 0; i < scripts.size(); i++) {
      boolean c = results.get(i).get(HANG.toSeconds() + 30, TimeUnit.SECONDS);
      frames += scripts.get(i).frames();
      if (c) {
        closed++;
      } else if (scripts.get(i).malformed()) {
        hung.add("script " + i + " (" + scripts.get(i).kind() + ")");
      }
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    return new Tally(frames, scripts.size(), closed, hung);
  }

  /** Writes the script; true if the node closed the connection (within {@link #HANG}). */
  private static boolean closedByNode(int port, FuzzFrames.Script s) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      socket.setSoTimeout((int) HANG.toMillis());
      OutputStream out = socket.getOutputStream();
      try {
        for (byte[] w : s.writes()) {
          out.write(w);
        }
        out.flush();
      } catch (IOException closedWhileWriting) {
        return true;
      }
      if (!s.malformed()) {
        return false; // a well-framed connection: the peer ends it
      }
      InputStream in = socket.getInputStream();
      byte[] sink = new byte[4096];
      try {
        while (in.read(sink) >= 0) {
          // the node's TLS answers, if any; drain until it closes
        }
        return true;
      } catch (SocketTimeoutException stillOpen) {
        return false;
      } catch (IOException reset) {
        return true;
      }
    }
  }

  /**
   * {@link #IDLE_FLOOD} connections that never send a byte, all at once: past max-pending the node
   * refuses them, the rest it closes at the handshake timeout.
   */
  private long idleFlood(int port) throws Exception {
    List<Socket> idle = new ArrayList<>();
    long closed = 0;
    for (int i = 0; i < IDLE_FLOOD; i++) {
      Socket s = new Socket();
      held.add(s);
      try {
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout((int) HANG.toMillis());
        idle.add(s);
      } catch (IOException refusedAtOnce) {
        closed++;
      }
    }
    for (Socket s : idle) {
      try {
        if (s.getInputStream().read() < 0) {
          closed++;
        }
      } catch (SocketTimeoutException stillOpen) {
        // counted as not closed
      } catch (IOException reset) {
        closed++;
      }
      s.close();
    }
    return closed;
  }

  private static long heapAfterGc() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  private static int port(ClusterNode.Started n) {
    return n.system().address().getPort().get();
  }

  /** What every phase must end with, whatever it threw at the nodes. */
  /** What a phase starts from: heap after GC, threads, the log counter, the time. */
  private record Baseline(long heap, int threads, LogLineCounter log, long startNanos) {
    static Baseline take() {
      long heap = heapAfterGc();
      int threads = ManagementFactory.getThreadMXBean().getThreadCount();
      return new Baseline(heap, threads, LogLineCounter.attach(40), System.nanoTime());
    }
  }

  private void checkAfter(
      String phase, ActorRef<Request> entry, Load load, Tally tally, Baseline before)
      throws Exception {
    LogLineCounter log = before.log();
    long heapBefore = before.heap();
    int threadsBefore = before.threads();
    long startNanos = before.startNanos();
    long tookMs = (System.nanoTime() - startNanos) / 1_000_000;
    System.out.printf(
        "%s: %,d frames on %,d connections (%,d closed by the node) in %,d ms: %.0f frames/s;"
            + " load %,d ok %,d errors; log %d lines, %d traces%n",
        phase,
        tally.frames(),
        tally.connections(),
        tally.closedByNode(),
        tookMs,
        tally.frames() * 1000.0 / Math.max(1, tookMs),
        load.ok.get(),
        load.errors.get(),
        log.lines(),
        log.traces());
    log.sample().forEach(l -> System.out.println("  log: " + l));
    assertThat(load.failures).as("load batches that did not finish").isEmpty();
    assertThat(load.errors.get()).as("load errors while the fuzz ran").isZero();
    assertThat(load.ok.get()).as("the load ran").isPositive();
    assertThat(tally.hung()).as("malformed connections the node never closed").isEmpty();
    assertThat(Duration.ofMillis(tookMs)).isLessThan(FUZZ_BUDGET);
    // the node still serves
    assertThat(batch(entry, 2_000, phase.replace(" ", "-") + "-after").errors()).isZero();
    // nothing left behind: no deadlock, no thread per connection, heap bounded
    assertThat(ManagementFactory.getThreadMXBean().findDeadlockedThreads()).isNull();
    assertThat(ManagementFactory.getThreadMXBean().getThreadCount())
        .as("threads")
        .isLessThan(threadsBefore + 40);
    long heapAfter = heapAfterGc();
    System.out.printf(
        "%s: heap after GC %,d -> %,d KiB%n", phase, heapBefore >> 10, heapAfter >> 10);
    assertThat(heapAfter - heapBefore).as("heap growth (bytes)").isLessThan(HEAP_GROWTH_MAX);
    assertThat(log.traces()).as("log lines with a stack trace").isZero();
    assertThat(log.lines()).as("log lines").isLessThanOrEqualTo(LOG_LINES_MAX);
    // the guards are back to the members' own connections
    TestProbe<Object> probe = ActorTestKit.create(host.system()).createTestProbe();
    for (ClusterNode.Started n : List.of(host, device)) {
      probe.awaitAssert(
          WAIT,
          () -> {
            assertThat(NodeMetrics.get(n.system()).inboundGauges().get("artery"))
                .containsEntry("pending", 0L);
            return null;
          });
    }
  }

  private static Map<String, Long> guardCounters(ClusterNode.Started n) {
    return NodeMetrics.get(n.system()).inboundCounters().get("artery");
  }

  private static long sum(String key, ClusterNode.Started... nodes) {
    long s = 0;
    for (ClusterNode.Started n : nodes) {
      s += guardCounters(n).getOrDefault(key, 0L);
    }
    return s;
  }

  /** Scripts from {@code next} until they hold at least {@code frames} frames. */
  private static List<FuzzFrames.Script> scripts(
      int frames, java.util.function.Supplier<FuzzFrames.Script> next) {
    List<FuzzFrames.Script> scripts = new ArrayList<>();
    for (long n = 0; n < frames; ) {
      FuzzFrames.Script s = next.get();
      scripts.add(s);
      n += s.frames();
    }
    return scripts;
  }

  @Test
  void plainTcpNodesSurviveTenThousandsOfBadFrames() throws Exception {
    ActorRef<Request> entry = startCluster(false);
    SplittableRandom random = new SplittableRandom(SEED);
    List<FuzzFrames.Script> scripts =
        scripts(ARTERY_TCP_FRAMES, () -> FuzzFrames.arteryTcp(random, MAX_FRAME));
    Baseline before = Baseline.take();
    LogLineCounter log = before.log();
    Tally tally;
    long idleClosed;
    try (Load load = new Load(entry)) {
      tally = run(scripts, List.of(port(device), port(host)));
      idleClosed = idleFlood(port(device));
      load.close();
      log.detach();
      checkAfter("plain tcp", entry, load, tally, before);
    }
    assertThat(tally.frames()).isGreaterThanOrEqualTo(ARTERY_TCP_FRAMES);
    assertThat(idleClosed).as("idle connections closed").isEqualTo(IDLE_FLOOD);
    assertThat(sum(ArteryGuard.BAD_FRAMING, host, device)).isPositive();
    assertThat(sum(ArteryGuard.HANDSHAKE_TIMEOUT, host, device)).isPositive();
    assertThat(sum(ArteryGuard.REFUSED_PENDING, device)).isPositive();
    String metrics =
        NodeReport.prometheus(List.of("device"), List.of(), NodeMetrics.get(device.system()));
    assertThat(metrics)
        .contains("mqroute_inbound_total{source=\"artery\",event=\"bad_framing\"}")
        .contains("mqroute_inbound_connections{source=\"artery\",state=\"open\"}");
  }

  @Test
  void tlsNodesSurviveBadRecordsStrangersAndBadKryoFromAMember(@TempDir Path dir) throws Exception {
    ActorRef<Request> entry = startCluster(true);
    SplittableRandom random = new SplittableRandom(SEED + 1);
    byte[] hello = FuzzFrames.clientHello();
    List<FuzzFrames.Script> scripts = scripts(TLS_RECORDS, () -> FuzzFrames.tls(random, hello));
    // a member of another cluster (its own key) and a client with no key: real handshakes
    Path otherKeys = Files.createDirectories(dir).resolve("other");
    ClusterKeys.create(otherKeys);
    SSLContext otherCluster = trustAll(otherKeys);
    SSLContext noKey = trustAll(null);

    garbage = ActorSystem.create(Behaviors.empty(), "mqroute", garbagePeer());
    ActorRef<RequestBatch> queue = deviceQueueFrom(garbage);
    TestProbe<CompletionBatch> outsider = ActorTestKit.create(garbage).createTestProbe();

    Baseline before = Baseline.take();
    LogLineCounter log = before.log();
    Tally tally;
    long idleClosed;
    int strangers = 0;
    try (Load load = new Load(entry)) {
      for (int i = 0; i < KRYO_MESSAGES; i++) {
        Request r =
            new Request(i, Op.WRITE, GarbageSerializer.FUZZ - i, 0, 4096, false, 0, 0, null);
        queue.tell(new RequestBatch(List.of(r), outsider.ref(), 0, 0));
      }
      tally = run(scripts, List.of(port(device), port(host)));
      ExecutorService clients = Executors.newFixedThreadPool(CONCURRENT);
      List<Future<Boolean>> refused = new ArrayList<>();
      for (int i = 0; i < STRANGERS; i++) {
        SSLContext ctx = i % 2 == 0 ? otherCluster : noKey;
        int port = i % 4 < 2 ? port(device) : port(host);
        refused.add(clients.submit(() -> handshakeFails(ctx, port)));
      }
      for (Future<Boolean> f : refused) {
        assertThat(f.get(HANG.toSeconds() + 30, TimeUnit.SECONDS))
            .as("a TLS client without the cluster's key gets through")
            .isTrue();
        strangers++;
      }
      clients.shutdown();
      assertThat(clients.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
      idleClosed = idleFlood(port(device));
      load.close();
      log.detach();
      checkAfter("tls", entry, load, tally, before);
    }
    outsider.expectNoMessage(Duration.ofMillis(100));
    assertThat(tally.frames()).isGreaterThanOrEqualTo(TLS_RECORDS);
    assertThat(tally.frames() + strangers + KRYO_MESSAGES + ARTERY_TCP_FRAMES)
        .as("malformed frames over both tests (issue #15: at least 10,000)")
        .isGreaterThanOrEqualTo(10_000);
    assertThat(idleClosed).as("idle connections closed").isEqualTo(IDLE_FLOOD);
    assertThat(sum(ArteryGuard.BAD_FRAMING, host, device)).isPositive();
    assertThat(sum(ArteryGuard.HANDSHAKE_TIMEOUT, host, device)).isPositive();
    assertThat(sum(ArteryGuard.CLOSED_BEFORE_ESTABLISHED, device)).isPositive();
    assertThat(sum(ArteryGuard.REFUSED_PENDING, device)).isPositive();
    Map<String, Long> kryo = NodeMetrics.get(device.system()).inboundCounters().get("kryo");
    assertThat(kryo.get("malformed")).as("malformed Kryo messages counted").isPositive();
    System.out.printf(
        "tls: %d real handshakes without the key refused; kryo: %d malformed of %d%n",
        strangers, kryo.get("malformed"), KRYO_MESSAGES);
  }

  /** A member's keys and the garbage serializer in place of Kryo. */
  private static Config garbagePeer() {
    return ArteryFramingTest.remote(
        ConfigFactory.parseString(
                """
            pekko.actor.serializers.mqroute-kryo = "io.mqroute.cluster.GarbageSerializer"
            # the attacker's own complaints are not the node's log
            pekko.loglevel = OFF
            """)
            .withFallback(TestKeys.artery()));
  }

  /** The device's first queue, as the garbage peer addresses it. */
  private ActorRef<RequestBatch> deviceQueueFrom(ActorSystem<Void> peer) {
    ActorTestKit deviceKit = ActorTestKit.create(device.system());
    TestProbe<Receptionist.Listing> listing = deviceKit.createTestProbe();
    ActorRef<Request> q =
        listing.awaitAssert(
            WAIT,
            () -> {
              device
                  .system()
                  .receptionist()
                  .tell(Receptionist.find(DeviceQueue.QUEUES, listing.ref()));
              var set = listing.receiveMessage(WAIT).getServiceInstances(DeviceQueue.QUEUES);
              var local = set.stream().filter(r -> r.path().address().hasLocalScope()).toList();
              assertThat(local).isNotEmpty();
              return local.get(0);
            });
    @SuppressWarnings("unchecked")
    ActorRef<RequestBatch> remote =
        (ActorRef<RequestBatch>)
            (ActorRef<?>)
                ActorRefResolver.get(peer)
                    .resolveActorRef(
                        ActorRefResolver.get(device.system()).toSerializationFormat(q));
    return remote;
  }

  /** A TLS client that trusts any server and presents {@code keys}' certificate (or none). */
  private static SSLContext trustAll(Path keys) throws Exception {
    KeyManagerFactory kmf = null;
    if (keys != null) {
      Config p = ConfigFactory.parseFile(keys.resolve(ClusterKeys.PASSWORDS).toFile()).resolve();
      char[] pw = p.getString("key-store-password").toCharArray();
      KeyStore ks = KeyStore.getInstance("PKCS12");
      try (InputStream in = Files.newInputStream(keys.resolve(ClusterKeys.KEY_STORE))) {
        ks.load(in, pw);
      }
      kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, pw);
    }
    TrustManager any =
        new X509TrustManager() {
          @Override
          public void checkClientTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public void checkServerTrusted(X509Certificate[] chain, String authType) {}

          @Override
          public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
          }
        };
    SSLContext ctx = SSLContext.getInstance("TLSv1.3");
    ctx.init(
        kmf == null ? null : kmf.getKeyManagers(), new TrustManager[] {any}, new SecureRandom());
    return ctx;
  }

  /**
   * A real TLS handshake with {@code ctx}; true if the node ended it (the handshake or the first
   * read fails, or the connection is closed), false if the client could go on talking.
   */
  private static boolean handshakeFails(SSLContext ctx, int port) throws IOException {
    try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
      s.setSoTimeout((int) HANG.toMillis());
      try {
        s.startHandshake();
        // TLS 1.3: the server's verdict on the client's certificate comes after the client's
        // Finished, as an alert on the first read
        return s.getInputStream().read() < 0;
      } catch (SocketTimeoutException hung) {
        return false;
      } catch (IOException refused) {
        return true;
      }
    }
  }
}
