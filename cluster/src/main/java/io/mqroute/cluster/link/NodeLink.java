package io.mqroute.cluster.link;

import io.mqroute.protocol.WireMessage;
import io.mqroute.protocol.wire.KryoCodec;
import io.mqroute.protocol.wire.RecentCache;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslProvider;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.AddressFromURIString;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The request path between nodes: one TCP connection (mutual TLS with the cluster's key, or plain
 * tcp on loopback as Artery) per pair of nodes, carrying the wire messages ({@link WireMessage}:
 * request and completion batches, drain announcements, keep-alives) to an actor of the other node,
 * on the node's own event loop ({@link NodeLoop}). Artery still carries everything else
 * (membership, the Receptionist, asks); a message to a node with no link yet goes over Artery, so
 * the link is an optimisation that changes no semantics but one: Artery and the link do not keep
 * order between each other, only within each (a node's messages move to the link once, when it
 * comes up).
 *
 * <p>Why not Artery: a message over Artery is handed from the sender's thread to Artery's stream,
 * Pekko I/O's selector and TCP actor, the guard relay, and on the other side the selector, the
 * stream and the receiver's dispatcher: 10-14 thread wake-ups per request round trip, ~80 % of the
 * latency (BENCHMARKS.md "Real-time speed"). Here a frame read by the loop is decoded and handled
 * by the receiving actor on the same thread, whose answer is written from that thread.
 *
 * <p>Frames: a 4-byte length (at most {@code maxFrame}), a kind byte, then for {@code HELLO} the
 * sender's Artery address (its first frame, within the handshake timeout) and for {@code MESSAGE}
 * the recipient's path (an actor of the receiving node only) and the Kryo bytes of the message
 * (registration required, size-limited, {@link KryoCodec}). A bad frame closes the connection.
 * Discovery: each node's cluster roles name its link port ({@link #role}).
 */
public final class NodeLink implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(NodeLink.class);
  private static final String ROLE_PREFIX = "mqroute-link-";
  private static final byte HELLO = 1;
  private static final byte MESSAGE = 2;
  private static final int MAX_PATH = 1024;
  private static final int CACHE = 4096;
  private static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
  // by the classic system (an identity): typed systems of one name compare equal in one JVM (tests)
  private static final Map<org.apache.pekko.actor.ActorSystem, NodeLink> ATTACHED =
      new ConcurrentHashMap<>();

  /** How a node sends a wire message: over its link when it has one to the recipient's node. */
  public interface Tell {
    <T> void tell(ActorRef<T> to, T message);
  }

  private static final Tell ARTERY = ActorRef::tell;

  /**
   * What the link bounds and how it authenticates.
   *
   * @param keys and trust: mutual TLS with the cluster's key (null: plain tcp, loopback only)
   * @param protocols and cipherSuites the TLS versions and suites allowed (empty: the provider's)
   * @param openSsl TLS through BoringSSL (netty-tcnative) when it loads here, else the JDK's
   * @param maxConnections inbound connections at once; one beyond is closed as it is accepted
   * @param handshakeTimeout a connection must say HELLO (after its TLS handshake) within this long
   * @param maxFrame the largest frame read or written
   */
  public record Settings(
      KeyManagerFactory keys,
      TrustManagerFactory trust,
      String[] protocols,
      String[] cipherSuites,
      boolean openSsl,
      int maxConnections,
      Duration handshakeTimeout,
      int maxFrame) {}

  private final EventLoopGroup loop;
  private final Settings settings;
  private final SslContext serverTls;
  private final SslContext clientTls;
  private final Channel server;
  private final AtomicInteger inbound = new AtomicInteger();
  private final Map<Address, Peer> peers = new ConcurrentHashMap<>();
  private final RecentCache<ActorRef<?>, byte[]> paths = new RecentCache<>(CACHE);
  private final LongAdder sent = new LongAdder();
  private final LongAdder received = new LongAdder();
  private final LongAdder refused = new LongAdder();
  private volatile ActorSystem<?> system;
  private volatile KryoCodec codec;
  private volatile String self;

  private static final class Peer {
    volatile Channel channel;
    volatile boolean connecting;
    volatile long retryAt;
  }

  private NodeLink(EventLoopGroup loop, Settings settings, String host)
      throws InterruptedException {
    this.loop = loop;
    this.settings = settings;
    this.serverTls = settings.keys() == null ? null : tls(settings, false);
    this.clientTls = settings.keys() == null ? null : tls(settings, true);
    this.server =
        new ServerBootstrap()
            .group(loop)
            .channel(NodeTransport.serverChannel(loop))
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel ch) {
                    if (inbound.incrementAndGet() > settings.maxConnections() || system == null) {
                      refused.increment();
                      ch.close();
                      inbound.decrementAndGet();
                      return;
                    }
                    ch.closeFuture().addListener(f -> inbound.decrementAndGet());
                    pipeline(ch, false, null);
                  }
                })
            .bind(new InetSocketAddress(host, 0))
            .sync()
            .channel();
  }

  /** Binds a free port on {@code host}, served by {@code loop}; messages flow once attached. */
  public static NodeLink bind(EventLoopGroup loop, String host, Settings settings) {
    try {
      return new NodeLink(loop, settings, host);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while binding the node link");
    }
  }

  /** The node's event loop (its actors' dispatcher), for other sockets of the request path. */
  public EventLoopGroup loop() {
    return loop;
  }

  /** The cluster role that tells the other nodes where this link listens. */
  public String role() {
    return ROLE_PREFIX + ((InetSocketAddress) server.localAddress()).getPort();
  }

  /** Starts serving {@code system}'s actors; the link closes when the system terminates. */
  public void attach(ActorSystem<?> system, Supplier<ActorRefResolver> resolver, int maxMessage) {
    this.codec = new KryoCodec(resolver, 4, maxMessage);
    this.self = system.address().toString();
    this.system = system;
    ATTACHED.put(system.classicSystem(), this);
    // connect before the first message needs it (it would go over Artery meanwhile): the node whose
    // address sorts first opens the pair's connection, the other answers on it after its HELLO
    io.netty.util.concurrent.ScheduledFuture<?> eager =
        loop.scheduleWithFixedDelay(this::connectEagerly, 0, 200, TimeUnit.MILLISECONDS);
    system.getWhenTerminated().thenRun(() -> eager.cancel(false)).thenRun(this::close);
  }

  /**
   * How {@code system}'s actors send wire messages: the link when the node has one, else Artery.
   */
  public static Tell of(ActorSystem<?> system) {
    return new Lazy(system.classicSystem());
  }

  /**
   * Finds the link at the first send that has one: the actors a node starts with (its device
   * queues) are created while the system starts, before {@link #attach} (a Tell fixed then went
   * over Artery for ever: NodeLinkTest saw a device answer every request over Artery).
   */
  private static final class Lazy implements Tell {
    private final org.apache.pekko.actor.ActorSystem system;
    private NodeLink link; // the actor's own thread only

    Lazy(org.apache.pekko.actor.ActorSystem system) {
      this.system = system;
    }

    @Override
    public <T> void tell(ActorRef<T> to, T message) {
      NodeLink l = link;
      if (l == null) {
        l = ATTACHED.get(system);
        if (l == null) {
          ARTERY.tell(to, message);
          return;
        }
        link = l;
      }
      l.tell(to, message);
    }
  }

  /** The link serving {@code system}, if it has one. */
  public static java.util.Optional<NodeLink> attached(ActorSystem<?> system) {
    return java.util.Optional.ofNullable(ATTACHED.get(system.classicSystem()));
  }

  /**
   * One side's TLS: the cluster's key, its trust, and every peer must show a key too. BoringSSL
   * wraps a small record in about a third of the JDK engine's time (BENCHMARKS.md "OpenSSL on the
   * node link"), and a batch on the wire is one record.
   */
  private static SslContext tls(Settings s, boolean client) {
    SslContextBuilder b =
        client
            // the peer proves it holds the cluster's key; node addresses are not in the
            // certificate (as Artery: hostname-verification off), so no endpoint identification
            ? SslContextBuilder.forClient()
                .keyManager(s.keys())
                .endpointIdentificationAlgorithm(null)
            : SslContextBuilder.forServer(s.keys()).clientAuth(ClientAuth.REQUIRE);
    b.trustManager(s.trust())
        .sslProvider(s.openSsl() && OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK);
    if (s.protocols().length > 0) {
      b.protocols(s.protocols());
    }
    if (s.cipherSuites().length > 0) {
      b.ciphers(java.util.Arrays.asList(s.cipherSuites()));
    }
    try {
      return b.build();
    } catch (SSLException e) {
      throw new IllegalStateException("the node link's TLS: " + e.getMessage(), e);
    }
  }

  /** True when the link's TLS runs on BoringSSL. */
  public boolean isOpenSsl() {
    return serverTls != null && !(serverTls instanceof JdkSslContext);
  }

  /**
   * Counters for /metrics; {@code peers}: the nodes it has a connection to now; {@code
   * native-epoll}: 1 when the loop runs on native epoll, 0 on the JDK's selector; {@code
   * tls-openssl}: 1 when its TLS runs on BoringSSL, 0 on the JDK's engine or without TLS.
   */
  public Map<String, Long> counters() {
    return Map.of(
        "peers", peers.values().stream().filter(p -> p.channel != null).count(),
        "sent", sent.sum(),
        "received", received.sum(),
        "refused", refused.sum(),
        "open", (long) inbound.get(),
        "native-epoll", NodeTransport.isEpoll(loop) ? 1L : 0L,
        "tls-openssl", isOpenSsl() ? 1L : 0L);
  }

  private <T> void tell(ActorRef<T> to, T message) {
    Address node = to.path().address();
    Channel ch;
    if (node.hasLocalScope()
        || !(message instanceof WireMessage wire)
        || (ch = channelTo(node)) == null) {
      to.tell(message);
      return;
    }
    byte[] path =
        paths.get(
            to,
            r ->
                ActorRefResolver.get(system)
                    .toSerializationFormat(r)
                    .getBytes(StandardCharsets.UTF_8));
    // the frame is written from the codec's own buffer: no array per message (a completion batch
    // carries the read data)
    ByteBuf buf =
        path.length > MAX_PATH
            ? null
            : codec.encode(
                wire,
                (body, bodyLength) -> {
                  int length = 1 + 2 + path.length + bodyLength;
                  if (length > settings.maxFrame()) {
                    return null;
                  }
                  ByteBuf b = ch.alloc().buffer(4 + length);
                  b.writeInt(length).writeByte(MESSAGE).writeShort(path.length).writeBytes(path);
                  return b.writeBytes(body, 0, bodyLength);
                });
    if (buf == null) {
      to.tell(message); // Artery refuses it by its own limits
      return;
    }
    ch.writeAndFlush(buf, ch.voidPromise());
    sent.increment();
  }

  private void connectEagerly() {
    for (Member m : Cluster.get(system).state().getMembers()) {
      if (m.address().toString().compareTo(self) > 0
          && m.getRoles().stream().anyMatch(r -> r.startsWith(ROLE_PREFIX))) {
        channelTo(m.address());
      }
    }
  }

  /** The link to {@code node} if it is up; else starts connecting (at most once a second). */
  private Channel channelTo(Address node) {
    Peer p = peers.computeIfAbsent(node, k -> new Peer());
    Channel ch = p.channel;
    if (ch != null) {
      return ch;
    }
    long now = System.nanoTime();
    if (p.connecting || now - p.retryAt < 0) {
      return null;
    }
    p.retryAt = now + RETRY_NANOS;
    int port = linkPort(node);
    if (port < 0) {
      return null;
    }
    p.connecting = true;
    new Bootstrap()
        .group(loop)
        .channel(NodeTransport.socketChannel(loop))
        .option(ChannelOption.TCP_NODELAY, true)
        .handler(
            new ChannelInitializer<SocketChannel>() {
              @Override
              protected void initChannel(SocketChannel c) {
                pipeline(c, true, p);
              }
            })
        .connect(node.getHost().get(), port)
        .addListener(
            f -> {
              if (!f.isSuccess()) {
                p.connecting = false;
              }
            });
    return null;
  }

  /** The link port a member's roles name, or -1 (not a member yet, or a node without a link). */
  private int linkPort(Address node) {
    for (Member m : Cluster.get(system).state().getMembers()) {
      if (m.address().equals(node)) {
        for (String r : m.getRoles()) {
          if (r.startsWith(ROLE_PREFIX)) {
            return Integer.parseInt(r.substring(ROLE_PREFIX.length()));
          }
        }
      }
    }
    return -1;
  }

  private void pipeline(SocketChannel ch, boolean client, Peer peer) {
    ChannelPipeline pipe = ch.pipeline();
    SslHandler tls = null;
    if (serverTls != null) {
      tls = (client ? clientTls : serverTls).newHandler(ch.alloc());
      tls.setHandshakeTimeoutMillis(settings.handshakeTimeout().toMillis());
      pipe.addLast(tls);
    }
    pipe.addLast(new LengthFieldBasedFrameDecoder(settings.maxFrame(), 0, 4, 0, 4));
    if (client) {
      Runnable hello =
          () -> {
            byte[] me = self.getBytes(StandardCharsets.UTF_8);
            ByteBuf b = ch.alloc().buffer(5 + me.length);
            b.writeInt(1 + me.length).writeByte(HELLO).writeBytes(me);
            ch.writeAndFlush(b);
            peer.channel = ch;
            peer.connecting = false;
          };
      if (tls != null) {
        tls.handshakeFuture()
            .addListener(
                f -> {
                  if (f.isSuccess()) {
                    hello.run();
                  }
                });
      }
      pipe.addLast(new Frames(peer, tls == null ? hello : null));
    } else {
      Frames frames = new Frames(null, null);
      pipe.addLast(frames);
      ch.eventLoop()
          .schedule(
              () -> {
                if (frames.from == null && ch.isActive()) {
                  frames.refuse(
                      ch.pipeline().context(frames), new IllegalStateException("no HELLO"));
                }
              },
              settings.handshakeTimeout().toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }

  /** One connection's inbound frames (on the loop); the recipient's ref is resolved once. */
  private final class Frames extends SimpleChannelInboundHandler<ByteBuf> {
    private final Peer outbound;
    private final Runnable helloWhenActive;
    private final RecentCache<String, ActorRef<Object>> refs = new RecentCache<>(CACHE);
    private Peer from;
    private boolean refusedHere;
    private byte[] scratch = new byte[4096];

    Frames(Peer outbound, Runnable helloWhenActive) {
      this.outbound = outbound;
      this.helloWhenActive = helloWhenActive;
      this.from = outbound;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
      if (helloWhenActive != null) {
        helloWhenActive.run();
      }
      ctx.fireChannelActive();
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf frame) {
      byte kind = frame.readByte();
      if (kind == HELLO && from == null) {
        Address peer = AddressFromURIString.parse(frame.toString(StandardCharsets.UTF_8));
        from = peers.computeIfAbsent(peer, k -> new Peer());
        if (from.channel == null) {
          from.channel = ctx.channel(); // both directions on one connection
        }
        return;
      }
      int pathLength = kind == MESSAGE && from != null ? frame.readUnsignedShort() : -1;
      if (pathLength < 1 || pathLength > MAX_PATH || pathLength > frame.readableBytes()) {
        throw new IllegalArgumentException("bad frame (kind " + kind + ")");
      }
      String path = frame.readCharSequence(pathLength, StandardCharsets.UTF_8).toString();
      ActorRef<Object> to =
          refs.get(
              path,
              p -> {
                ActorRef<Object> r = ActorRefResolver.get(system).resolveActorRef(p);
                if (!r.path().address().hasLocalScope()) {
                  throw new IllegalArgumentException("a recipient on another node: " + p);
                }
                return r;
              });
      // into one array per connection, reused: the decoded message keeps no reference to it
      int length = frame.readableBytes();
      if (scratch.length < length) {
        scratch = new byte[Math.max(length, Math.min(2 * scratch.length, settings.maxFrame()))];
      }
      frame.readBytes(scratch, 0, length);
      to.tell(codec.decode(scratch, 0, length));
      received.increment();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      for (Peer p : new Peer[] {outbound, from}) {
        if (p != null && p.channel == ctx.channel()) {
          p.channel = null;
        }
      }
      if (outbound != null) {
        outbound.connecting = false;
      }
      ctx.fireChannelInactive();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
      if (event instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
        refuse(ctx, e.cause());
      }
      ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      refuse(ctx, cause);
    }

    /** Closes the connection, counted once. */
    private void refuse(ChannelHandlerContext ctx, Throwable cause) {
      if (!refusedHere) {
        refusedHere = true;
        refused.increment();
        log.debug("node link {}: {}", ctx.channel().remoteAddress(), cause.toString());
      }
      ctx.close();
    }
  }

  @Override
  public void close() {
    ATTACHED.values().remove(this);
    server.close();
    peers
        .values()
        .forEach(
            p -> {
              Channel c = p.channel;
              if (c != null) {
                c.close();
              }
            });
  }
}
