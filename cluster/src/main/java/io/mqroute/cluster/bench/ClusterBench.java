package io.mqroute.cluster.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.ClusterKeys;
import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.DeviceQueue;
import io.mqroute.cluster.HostRouter;
import io.mqroute.cluster.HostRouterProtocol;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.cluster.load.LoadRunner;
import io.mqroute.protocol.Request;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;

/**
 * Cross-node throughput of the cluster path (architecture.md §5a benchmarks), two ActorSystems in
 * one JVM on loopback Artery TCP: a host system (closed-loop client and {@link HostRouter}) and a
 * device system ({@link DeviceQueue}s with the {@code null} or the {@code file} backend). Every
 * request crosses the network twice (router to queue, completion back). With {@code file}, also
 * direct {@link FileChannel} 4 KiB random reads in this JVM on the same file for the ratio. The
 * numbers depend on the machine and its load: they are printed, never asserted.
 */
public final class ClusterBench {
  /** What to run. */
  public record Options(
      String backend,
      long requests,
      long warmup,
      int window,
      int queues,
      Path dir,
      long fileBytes,
      Path keys) {}

  private ClusterBench() {}

  public static void run(Options o, PrintStream out) throws Exception {
    Path file = null;
    if (o.backend().equals("file")) {
      file = prepareFile(o.dir(), o.fileBytes());
    }
    ActorSystem<Void> host =
        ClusterNode.start(NodeSettings.Role.HOST, config("host", null, o)).system();
    ActorSystem<Void> device =
        ClusterNode.start(NodeSettings.Role.DEVICE, config("device", o.dir(), o)).system();
    try {
      Cluster.get(host).manager().tell(Join.create(Cluster.get(host).selfMember().address()));
      Cluster.get(device).manager().tell(Join.create(Cluster.get(host).selfMember().address()));
      ActorRef<Request> entry = awaitRouterWithQueues(host, o.queues());
      out.printf(
          Locale.ROOT,
          "cluster formed; %s backend, %d queue(s), %d in flight%n",
          o.backend(),
          o.queues(),
          o.window());
      ClosedLoopClientProtocol.Report warm = measure(host, entry, o.warmup(), o, "warmup");
      out.printf(
          Locale.ROOT,
          "warmup:   %,d requests, %.0f/s%n",
          warm.ok() + warm.errors(),
          warm.perSecond());
      ClosedLoopClientProtocol.Report r = measure(host, entry, o.requests(), o, "measure");
      out.printf(
          Locale.ROOT,
          "measured: %,d requests (%d errors) in %.2f s: %.0f requests/s; latency p50 %.0f us,"
              + " p99 %.0f us%n",
          r.ok() + r.errors(),
          r.errors(),
          r.wallNanos() / 1e9,
          r.perSecond(),
          r.latency().getValueAtPercentile(50) / 1e3,
          r.latency().getValueAtPercentile(99) / 1e3);
      if (file != null) {
        direct(file, o, out, r.perSecond());
      }
    } finally {
      device.terminate();
      host.terminate();
      ClusterNode.awaitTermination(device, Duration.ofSeconds(30));
      ClusterNode.awaitTermination(host, Duration.ofSeconds(30));
    }
  }

  static Config config(String role, Path dir, Options o) {
    String extra =
        """
        pekko.remote.artery.canonical.port = 0
        pekko.cluster.seed-nodes = []
        pekko.cluster.roles = [%s]
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.management.http.port = -1
        pekko.loglevel = WARNING
        mqroute.cluster.device.queues = %d
        mqroute.cluster.host.queue-window = %d
        mqroute.cluster.device.ring-size = %d
        """
            .formatted(role, o.queues(), o.window(), o.window());
    Config c = ConfigFactory.parseString(extra);
    if (o.backend().equals("file") && role.equals("device")) {
      c =
          ConfigFactory.parseString(
                  "mqroute.cluster.device { backend = file, file-root = \"%s\", file-max-bytes = %d }"
                      .formatted(
                          dir.toAbsolutePath().toString().replace("\\", "\\\\"), o.fileBytes()))
              .withFallback(c);
    }
    // both nodes over mutual TLS with the cluster's keys, or plain tcp (loopback, in one JVM)
    c =
        c.withFallback(
            o.keys() != null
                ? ClusterKeys.artery(o.keys())
                : ConfigFactory.parseString("pekko.remote.artery.transport = tcp"));
    return c.withFallback(ConfigFactory.parseResources("mqroute-node.conf"))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  private static ActorRef<Request> awaitRouterWithQueues(ActorSystem<Void> host, int queues)
      throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    List<ActorRef<Request>> entries = LoadRunner.awaitRouters(host, Duration.ofSeconds(60));
    // the entry is the router's adapter; the router itself answers GetSlots
    ActorRef<HostRouterProtocol.Command> router =
        host.classicSystem()
            .actorSelection("/user/router")
            .resolveOne(Duration.ofSeconds(10))
            .toCompletableFuture()
            .thenApply(Adapter::<HostRouterProtocol.Command>toTyped)
            .get(15, TimeUnit.SECONDS);
    while (System.nanoTime() < deadline) {
      HostRouterProtocol.Slots s =
          AskPattern.<HostRouterProtocol.Command, HostRouterProtocol.Slots>ask(
                  router, HostRouterProtocol.GetSlots::new, Duration.ofSeconds(5), host.scheduler())
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      if (s.queues().stream().filter(Objects::nonNull).count() >= queues) {
        return entries.get(0);
      }
      Thread.sleep(100); // a benchmark's setup, not a test: poll the router's view
    }
    throw new IllegalStateException("the device's queues did not reach the router within 60 s");
  }

  private static ClosedLoopClientProtocol.Report measure(
      ActorSystem<Void> host, ActorRef<Request> entry, long n, Options o, String name)
      throws Exception {
    ActorRef<ClosedLoopClientProtocol.Command> client =
        host.systemActorOf(
            ClosedLoopClient.create(entry, n, o.window(), o.fileBytes()),
            "bench-" + name,
            Props.empty());
    return AskPattern.<ClosedLoopClientProtocol.Command, ClosedLoopClientProtocol.Report>ask(
            client, ClosedLoopClientProtocol.Start::new, Duration.ofMinutes(10), host.scheduler())
        .toCompletableFuture()
        .get(11, TimeUnit.MINUTES);
  }

  /**
   * The file the device serves (f-0 under dir), written once and read once so it is in the page
   * cache.
   */
  private static Path prepareFile(Path dir, long bytes) throws IOException {
    Files.createDirectories(dir);
    Path f = dir.resolve("f-0");
    if (!Files.exists(f) || Files.size(f) != bytes) {
      try (FileChannel ch =
          FileChannel.open(
              f,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer b = ByteBuffer.allocate(1 << 20);
        SplittableRandom r = new SplittableRandom(1);
        for (long pos = 0; pos < bytes; pos += b.capacity()) {
          b.clear();
          while (b.hasRemaining()) {
            b.put((byte) r.nextInt());
          }
          b.flip();
          ch.write(b, pos);
        }
      }
    }
    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocateDirect(1 << 20);
      for (long pos = 0; pos < bytes; pos += b.capacity()) {
        b.clear();
        ch.read(b, pos);
      }
    }
    return f;
  }

  /** Direct 4 KiB random positional reads on the same file in this JVM, on 1 and on 2 threads. */
  private static void direct(Path f, Options o, PrintStream out, double clusterPerSecond)
      throws Exception {
    double best = 0;
    for (int threads : new int[] {1, 2}) {
      long perThread = Math.max(1, o.requests() / threads);
      List<Thread> ts = new ArrayList<>();
      long start = System.nanoTime();
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        for (int t = 0; t < threads; t++) {
          final int seed = t;
          Thread th =
              new Thread(
                  () -> {
                    ByteBuffer b = ByteBuffer.allocate(4096);
                    SplittableRandom r = new SplittableRandom(seed);
                    long blocks = o.fileBytes() / 4096;
                    try {
                      for (long i = 0; i < perThread; i++) {
                        b.clear();
                        ch.read(b, 4096L * r.nextLong(blocks));
                      }
                    } catch (IOException e) {
                      throw new UncheckedIOException(e);
                    }
                  });
          ts.add(th);
          th.start();
        }
        for (Thread th : ts) {
          th.join();
        }
      }
      double perSecond = perThread * threads / ((System.nanoTime() - start) / 1e9);
      best = Math.max(best, perSecond);
      out.printf(
          Locale.ROOT,
          "direct FileChannel 4k random reads, %d thread(s): %.0f/s%n",
          threads,
          perSecond);
    }
    out.printf(Locale.ROOT, "ratio cluster / best direct: %.3f%n", clusterPerSecond / best);
  }

  /**
   * {@code java -cp ... io.mqroute.cluster.bench.ClusterBench [null|file] [requests] [window]
   * [queues] [dir]}.
   */
  public static void main(String[] args) throws Exception {
    String backend = args.length > 0 ? args[0] : "null";
    long n = args.length > 1 ? Long.parseLong(args[1]) : 1_000_000;
    int window = args.length > 2 ? Integer.parseInt(args[2]) : 64;
    int queues = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    Path dir = args.length > 4 ? Path.of(args[4]) : Path.of("target", "cluster-bench");
    run(
        new Options(backend, n, Math.max(1, n / 4), window, queues, dir, 256L << 20, null),
        System.out);
    System.exit(0);
  }
}
