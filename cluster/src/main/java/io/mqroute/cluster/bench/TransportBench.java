package io.mqroute.cluster.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializers;
import org.apache.pekko.stream.BoundedSourceQueue;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.SinkRef;
import org.apache.pekko.stream.SourceRef;
import org.apache.pekko.stream.javadsl.Keep;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.javadsl.StreamRefs;

/**
 * The cross-node transport alone, two ways, side by side in one run (issue #16 item 2: Pekko's
 * StreamRefs or a demand-credit protocol of our own): two ActorSystems in one JVM on loopback
 * Artery (the same configuration as {@link ClusterBench}), a device side that answers every request
 * at once and a host side that keeps {@code inFlight} requests outstanding, closed loop.
 *
 * <ul>
 *   <li><b>StreamRefs</b>: the host's requests go into a {@link SinkRef} the device materialized,
 *       the completions come back through a {@link SourceRef}; demand and buffering are Pekko's
 *       (stream-ref buffer = {@code inFlight}). Each element is one Artery message.
 *   <li><b>Batched messages with a window</b> (what the cluster does): whatever is ready goes as
 *       one {@link RequestBatch}, answered by one {@link CompletionBatch}; the window is the
 *       credit.
 *   <li><b>One message per request</b>, for reference.
 * </ul>
 *
 * The refs cross the JVM's two systems through serialization, so every hop is a real Artery hop.
 */
public final class TransportBench {
  private TransportBench() {}

  /** Runs the three ways and prints requests/s for each and their ratios. */
  public static void run(int inFlight, long requests, Path keys, PrintStream out) throws Exception {
    ClusterBench.Options o =
        new ClusterBench.Options("null", requests, 0, inFlight, 1, null, 0, keys);
    Config c =
        ConfigFactory.parseString(
                "pekko.stream.materializer.stream-ref.buffer-capacity = " + inFlight)
            .withFallback(ClusterBench.config("client", null, o));
    ActorSystem<Void> host = ClusterNode.start(NodeSettings.Role.CLIENT, c).system();
    ActorSystem<Void> device = ClusterNode.start(NodeSettings.Role.CLIENT, c).system();
    try {
      Cluster.get(host).manager().tell(Join.create(Cluster.get(host).selfMember().address()));
      Cluster.get(device).manager().tell(Join.create(Cluster.get(host).selfMember().address()));
      ActorRef<Object> echo = device.systemActorOf(echo(), "echo", Props.empty());
      ActorRef<Object> remoteEcho =
          ActorRefResolver.get(host)
              .resolveActorRef(ActorRefResolver.get(device).toSerializationFormat(echo));
      long warm = Math.max(1000, requests / 5);
      double[] batched = new double[2];
      double[] single = new double[2];
      double[] refs = new double[2];
      for (int round = 0; round < 2; round++) { // the first round warms every path up
        long n = round == 0 ? warm : requests;
        batched[round] = messages(host, remoteEcho, inFlight, n, true);
        single[round] = messages(host, remoteEcho, inFlight, n, false);
        refs[round] = streamRefs(host, device, inFlight, n);
      }
      out.printf(
          Locale.ROOT,
          "transport only, %d in flight, %,d requests each, loopback Artery (%s):%n",
          inFlight,
          requests,
          keys != null ? "tls-tcp" : "tcp");
      out.printf(
          Locale.ROOT, "  batched messages, window %d: %10.0f requests/s%n", inFlight, batched[1]);
      out.printf(Locale.ROOT, "  one message per request:    %10.0f requests/s%n", single[1]);
      out.printf(
          Locale.ROOT, "  StreamRefs (buffer %d):      %10.0f requests/s%n", inFlight, refs[1]);
      out.printf(
          Locale.ROOT,
          "  ratios: StreamRefs / batched %.2f, one-per-request / batched %.2f%n",
          refs[1] / batched[1],
          single[1] / batched[1]);
    } finally {
      device.terminate();
      host.terminate();
      ClusterNode.awaitTermination(device, Duration.ofSeconds(30));
      ClusterNode.awaitTermination(host, Duration.ofSeconds(30));
    }
  }

  private static Completion answer(Request r) {
    return new Completion(r.id(), Status.OK, r.submitNanos(), 0, 0, 0);
  }

  private static Request request(long id) {
    return new Request(id, Op.READ, 0, 0, 4096, true, 0, System.nanoTime(), null);
  }

  /** The device side of the message ways: a batch gets a batch back, a request a completion. */
  private static Behavior<Object> echo() {
    return Behaviors.receive(Object.class)
        .onMessage(
            RequestBatch.class,
            b -> {
              List<Completion> cs = new ArrayList<>(b.requests().size());
              b.requests().forEach(r -> cs.add(answer(r)));
              CompletionBatch.split(cs).forEach(b.replyTo()::tell);
              return Behaviors.same();
            })
        .onMessage(
            Request.class,
            r -> {
              r.replyTo().tell(answer(r));
              return Behaviors.same();
            })
        .build();
  }

  /** Closed loop over actor messages; requests/s. */
  private static double messages(
      ActorSystem<Void> host, ActorRef<Object> echo, int inFlight, long n, boolean batched)
      throws Exception {
    CompletableFuture<Long> done = new CompletableFuture<>();
    host.systemActorOf(
        Behaviors.<Object>setup(
            ctx -> {
              long[] sent = {0};
              long[] ended = {0};
              long start = System.nanoTime();
              ActorRef<CompletionBatch> batches = ctx.messageAdapter(CompletionBatch.class, b -> b);
              ActorRef<Completion> singles = ctx.messageAdapter(Completion.class, c -> c);
              Runnable[] issue = new Runnable[1];
              List<Request> out = new ArrayList<>();
              issue[0] =
                  () -> {
                    while (sent[0] - ended[0] < inFlight && sent[0] < n) {
                      if (batched) {
                        out.add(request(sent[0]++));
                      } else {
                        echo.tell(request(sent[0]++).withReplyTo(singles));
                      }
                    }
                    if (!out.isEmpty()) {
                      RequestBatch.split(out, batches).forEach(echo::tell);
                      out.clear();
                    }
                  };
              issue[0].run();
              return Behaviors.receive(Object.class)
                  .onMessage(
                      CompletionBatch.class,
                      b -> {
                        ended[0] += b.completions().size();
                        return next(ended, n, start, done, issue[0]);
                      })
                  .onMessage(
                      Completion.class,
                      c -> {
                        ended[0]++;
                        return next(ended, n, start, done, issue[0]);
                      })
                  .build();
            }),
        "transport-" + (batched ? "batched-" : "single-") + RUNS.incrementAndGet(),
        Props.empty());
    return n / (done.get(10, TimeUnit.MINUTES) / 1e9);
  }

  private static final AtomicLong RUNS = new AtomicLong();

  private static Behavior<Object> next(
      long[] ended, long n, long start, CompletableFuture<Long> done, Runnable issue) {
    if (ended[0] >= n) {
      done.complete(System.nanoTime() - start);
      return Behaviors.stopped();
    }
    issue.run();
    return Behaviors.same();
  }

  /** Closed loop over a SinkRef (requests) and a SourceRef (completions); requests/s. */
  private static double streamRefs(
      ActorSystem<Void> host, ActorSystem<Void> device, int inFlight, long n) throws Exception {
    Materializer deviceMat = Materializer.createMaterializer(device);
    Materializer hostMat = Materializer.createMaterializer(host);
    Pair<SinkRef<Request>, SourceRef<Completion>> refs =
        StreamRefs.<Request>sinkRef()
            .map(TransportBench::answer)
            .toMat(StreamRefs.sourceRef(), Keep.both())
            .run(deviceMat);
    SinkRef<Request> sinkRef = across(device, host, refs.first());
    SourceRef<Completion> sourceRef = across(device, host, refs.second());
    CompletableFuture<Long> done = new CompletableFuture<>();
    AtomicLong sent = new AtomicLong();
    AtomicLong ended = new AtomicLong();
    BoundedSourceQueue<Request> in =
        Source.<Request>queue(inFlight).to(sinkRef.getSink()).run(hostMat);
    long start = System.nanoTime();
    sourceRef
        .getSource()
        .runWith(
            Sink.foreach(
                c -> {
                  long e = ended.incrementAndGet();
                  if (e >= n) {
                    done.complete(System.nanoTime() - start);
                    in.complete();
                  } else if (sent.get() < n) {
                    in.offer(request(sent.getAndIncrement()));
                  }
                }),
            hostMat);
    for (int i = 0; i < inFlight && sent.get() < n; i++) {
      in.offer(request(sent.getAndIncrement()));
    }
    double perSecond = n / (done.get(10, TimeUnit.MINUTES) / 1e9);
    deviceMat.shutdown();
    hostMat.shutdown();
    return perSecond;
  }

  /** A stream ref as the other system sees it: serialized there, deserialized here. */
  @SuppressWarnings("unchecked")
  private static <T> T across(ActorSystem<Void> from, ActorSystem<Void> to, T ref) {
    Serialization s = SerializationExtension.get(from.classicSystem());
    var serializer = s.findSerializerFor(ref);
    byte[] bytes = s.serialize(ref).get();
    return (T)
        SerializationExtension.get(to.classicSystem())
            .deserialize(bytes, serializer.identifier(), Serializers.manifestFor(serializer, ref))
            .get();
  }

  /** {@code java -cp ... io.mqroute.cluster.bench.TransportBench [inFlight] [requests]}. */
  public static void main(String[] args) throws Exception {
    int inFlight = args.length > 0 ? Integer.parseInt(args[0]) : 64;
    long n = args.length > 1 ? Long.parseLong(args[1]) : 500_000;
    run(inFlight, n, null, System.out);
    System.exit(0);
  }
}
