package io.mqroute.nbd;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The NBD server: binds with Netty on an event loop (the node's own, {@code NodeLoop}, when the
 * caller passes it: then a request read from the socket reaches the host router on the thread that
 * read it) and runs every accepted connection through its own {@link NbdChannelHandler} in front of
 * one {@link NbdBackend}. Connections over {@link NbdServerSettings#maxConnections()} are closed as
 * they arrive (before the greeting: NBD has no way to say "busy"); TCP_NODELAY is set on every
 * connection, as the spec recommends. What bad clients cause is counted ({@link #counters()}) and
 * logged at most once per kind per {@link NbdServerStats#LOG_INTERVAL}.
 */
public final class NbdServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NbdServer.class);

  private final Channel binding;
  private final ChannelGroup connections;
  private final EventLoopGroup ownLoop;
  private final NbdServerStats stats;

  private NbdServer(
      Channel binding, ChannelGroup connections, EventLoopGroup ownLoop, NbdServerStats stats) {
    this.binding = binding;
    this.connections = connections;
    this.ownLoop = ownLoop;
    this.stats = stats;
  }

  /** The server-socket channel {@code group} serves: native epoll's on an epoll loop. */
  private static Class<? extends ServerChannel> serverChannel(EventLoopGroup group) {
    return group instanceof IoEventLoopGroup g && g.isIoType(EpollIoHandler.class)
        ? EpollServerSocketChannel.class
        : NioServerSocketChannel.class;
  }

  /**
   * Binds and serves {@code backend} on {@code loop} (null: a one-thread loop of its own, stopped
   * with the server); the stage completes when the socket is bound (or fails, e.g. with the port in
   * use).
   */
  public static CompletionStage<NbdServer> start(
      NbdServerSettings settings, NbdBackend backend, EventLoopGroup loop) {
    EventLoopGroup own =
        loop != null
            ? null
            : new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("mqroute-nbd", true), NioIoHandler.newFactory());
    EventLoopGroup group = loop != null ? loop : own;
    NbdServerStats stats = new NbdServerStats();
    AtomicInteger open = stats.open;
    AtomicInteger accepted = new AtomicInteger();
    ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
    CompletableFuture<NbdServer> bound = new CompletableFuture<>();
    new ServerBootstrap()
        .group(group)
        .channel(serverChannel(group))
        .option(ChannelOption.SO_BACKLOG, 100)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childHandler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel c) {
                String peer = String.valueOf(c.remoteAddress());
                if (open.incrementAndGet() > settings.maxConnections()) {
                  open.decrementAndGet();
                  stats.countAndLog(
                      log,
                      NbdServerStats.REFUSED_LIMIT,
                      "nbd: {} connections open already (max-connections), closed the one from {}",
                      settings.maxConnections(),
                      peer);
                  c.close();
                  return;
                }
                stats.count(NbdServerStats.ACCEPTED);
                connections.add(c);
                c.closeFuture().addListener(f -> open.decrementAndGet());
                c.pipeline()
                    .addLast(
                        new NbdChannelHandler(
                            settings, backend, accepted.getAndIncrement(), peer, stats));
              }
            })
        .bind(settings.host(), settings.port())
        .addListener(
            (ChannelFuture f) -> {
              if (f.isSuccess()) {
                bound.complete(new NbdServer(f.channel(), connections, own, stats));
              } else {
                if (own != null) {
                  own.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
                }
                bound.completeExceptionally(f.cause());
              }
            });
    return bound;
  }

  /** Binds with {@link #start} on a loop of its own and waits for it, at most {@code timeout}. */
  public static NbdServer startAndWait(
      NbdServerSettings settings, NbdBackend backend, Duration timeout) throws Exception {
    return start(settings, backend, null)
        .toCompletableFuture()
        .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Where it listens (the real port when 0 was asked for). */
  public InetSocketAddress address() {
    return (InetSocketAddress) binding.localAddress();
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
   * shutdown, whose tasks must not hold a dispatcher's thread).
   */
  public CompletionStage<Void> closeAsync() {
    CompletableFuture<Void> done = new CompletableFuture<>();
    binding
        .close()
        .addListener(
            f ->
                connections
                    .close()
                    .addListener(
                        g -> {
                          if (ownLoop != null) {
                            ownLoop.shutdownGracefully(0, 100, TimeUnit.MILLISECONDS);
                          }
                          done.complete(null);
                        }));
    return done;
  }

  /** Stops accepting and ends every open connection. */
  @Override
  public void close() {
    try {
      closeAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      log.warn("nbd: close: {}", e.toString());
    }
  }
}
