package io.mqroute.nbd;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.io.Inet;
import org.apache.pekko.io.TcpSO;
import org.apache.pekko.stream.KillSwitches;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.SharedKillSwitch;
import org.apache.pekko.stream.javadsl.Flow;
import org.apache.pekko.stream.javadsl.Sink;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.javadsl.Tcp;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NBD server: binds with Pekko Streams TCP ({@code Tcp.get(system).bind}) and runs every
 * accepted connection through its own {@link NbdConnectionStage} in front of one {@link
 * NbdBackend}. Connections over {@link NbdServerSettings#maxConnections()} are closed as they
 * arrive (before the greeting: NBD has no way to say "busy"); TCP_NODELAY is set on every
 * connection, as the spec recommends. What bad clients cause is counted ({@link #counters()}) and
 * logged at most once per kind per {@link NbdServerStats#LOG_INTERVAL}.
 */
public final class NbdServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NbdServer.class);

  private final Tcp.ServerBinding binding;
  private final SharedKillSwitch connections;
  private final NbdServerStats stats;

  private NbdServer(Tcp.ServerBinding binding, SharedKillSwitch connections, NbdServerStats stats) {
    this.binding = binding;
    this.connections = connections;
    this.stats = stats;
  }

  /**
   * Binds and serves {@code backend}; the stage completes when the socket is bound (or fails, e.g.
   * with the port in use).
   */
  public static CompletionStage<NbdServer> start(
      ActorSystem<?> system, NbdServerSettings settings, NbdBackend backend) {
    Materializer mat = Materializer.matFromSystem(system);
    SharedKillSwitch kill = KillSwitches.shared("nbd-connections");
    NbdServerStats stats = new NbdServerStats();
    AtomicInteger open = stats.open;
    AtomicInteger accepted = new AtomicInteger();
    List<Inet.SocketOption> options = List.of(TcpSO.tcpNoDelay(true));
    Source<Tcp.IncomingConnection, CompletionStage<Tcp.ServerBinding>> incoming =
        Tcp.get(system)
            .bind(settings.host(), settings.port(), 100, options, false, Optional.empty());
    CompletionStage<Tcp.ServerBinding> bound =
        incoming
            .to(
                Sink.foreach(
                    c -> {
                      String peer = c.remoteAddress().toString();
                      if (open.incrementAndGet() > settings.maxConnections()) {
                        open.decrementAndGet();
                        stats.countAndLog(
                            log,
                            NbdServerStats.REFUSED_LIMIT,
                            "nbd: {} connections open already (max-connections), closed the one"
                                + " from {}",
                            settings.maxConnections(),
                            peer);
                        c.handleWith(
                            Flow.fromSinkAndSource(Sink.cancelled(), Source.<ByteString>empty()),
                            mat);
                        return;
                      }
                      stats.count(NbdServerStats.ACCEPTED);
                      int index = accepted.getAndIncrement();
                      Flow<ByteString, ByteString, ?> flow =
                          Flow.<ByteString>create()
                              .via(kill.flow())
                              .via(new NbdConnectionStage(settings, backend, index, peer, stats))
                              .watchTermination(
                                  (m, done) -> {
                                    done.whenComplete((d, e) -> open.decrementAndGet());
                                    return m;
                                  });
                      c.handleWith(flow, mat);
                    }))
            .run(mat);
    return bound.thenApply(b -> new NbdServer(b, kill, stats));
  }

  /** Binds with {@link #start} and waits for it, at most {@code timeout}. */
  public static NbdServer startAndWait(
      ActorSystem<?> system, NbdServerSettings settings, NbdBackend backend, Duration timeout)
      throws Exception {
    return start(system, settings, backend)
        .toCompletableFuture()
        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Where it listens (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return binding.localAddress();
  }

  /** Connections open now. */
  public int openConnections() {
    return stats.open.get();
  }

  /**
   * Connections by outcome so far: accepted, refused_limit (over max-connections),
   * handshake_timeout, protocol_error (closed for what the client sent), transmission (reached the
   * transmission phase).
   */
  public Map<String, Long> counters() {
    return stats.counters();
  }

  /** Connections open now ({@code open}) and of them still in the handshake ({@code pending}). */
  public Map<String, Long> gauges() {
    return stats.gauges();
  }

  /**
   * Stops accepting, then ends every open connection, without blocking the caller (for coordinated
   * shutdown, whose tasks must not hold a dispatcher's thread: the unbind needs one).
   */
  public CompletionStage<Void> closeAsync() {
    return binding
        .unbind()
        .handle(
            (done, e) -> {
              if (e != null) {
                log.warn("nbd: unbind: {}", e.toString());
              }
              connections.shutdown();
              return null;
            });
  }

  /** Stops accepting and ends every open connection. */
  @Override
  public void close() {
    try {
      binding.unbind().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("nbd: unbind: {}", e.toString());
    }
    connections.shutdown();
  }
}
