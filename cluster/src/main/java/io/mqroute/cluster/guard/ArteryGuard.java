package io.mqroute.cluster.guard;

import io.mqroute.metrics.LogRateLimit;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A TCP relay in front of a node's Artery port: peers connect to the guard on the node's canonical
 * address, the guard connects to Artery's real bind on loopback and copies bytes both ways. Pekko
 * 1.7.0 bounds none of what an inbound connection can do before it is a peer: Artery binds with no
 * connection limit and no idle or handshake timeout ({@code ArteryTcpTransport.bindInboundStreams}:
 * {@code idleTimeout = Duration.Inf}), and its TCP framing takes any frame length (the 9-byte repro
 * of issue #15). The guard adds, per node:
 *
 * <ul>
 *   <li>at most {@code maxConnections} inbound connections and {@code maxPending} of them not yet
 *       established; a connection beyond either is closed as it is accepted;
 *   <li>a connection not established within {@code handshakeTimeout} is closed (over TLS: handshake
 *       done, see {@link InboundFraming.Tls}; over plain tcp: the connection header and a whole
 *       first frame);
 *   <li>frames checked before Artery sees them ({@link InboundFraming}): a bad TLS record header, a
 *       wrong magic or stream id, a frame length that is negative, zero or over the maximum end the
 *       connection;
 *   <li>each kind of refusal counted ({@link #counters()}) and logged at most once per {@code
 *       logInterval}, with the number held back.
 * </ul>
 *
 * <p>One selector thread serves every connection; buffers are per connection (32 KiB towards the
 * node, 8 KiB back), so memory is bounded by {@code maxConnections}. The price is one more loopback
 * hop for every inbound byte (BENCHMARKS.md "Artery guard").
 */
public final class ArteryGuard implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ArteryGuard.class);
  private static final int TO_NODE_BUFFER = 32 * 1024;
  private static final int TO_PEER_BUFFER = 8 * 1024;

  /** Counter keys (see {@link #counters()}). */
  public static final String ACCEPTED = "accepted";

  public static final String ESTABLISHED = "established";
  public static final String REFUSED_LIMIT = "refused_limit";
  public static final String REFUSED_PENDING = "refused_pending_limit";
  public static final String HANDSHAKE_TIMEOUT = "handshake_timeout";
  public static final String BAD_FRAMING = "bad_framing";
  public static final String CLOSED_BEFORE_ESTABLISHED = "closed_before_established";
  public static final String NODE_UNREACHABLE = "node_unreachable";
  public static final String ACCEPT_FAILED = "accept_failed";
  public static final String INTERNAL = "internal_error";
  private static final long ACCEPT_PAUSE_MS = 100;

  /**
   * What the guard bounds.
   *
   * @param maxConnections inbound connections open at once (each peer holds two or three)
   * @param maxPending of them, not yet established at once
   * @param handshakeTimeout how long a connection may take to be established
   * @param logInterval at most one log line per kind of refusal in this long
   * @param framing what the connections carry: TLS records, or Artery's TCP frames in the clear
   */
  public record Settings(
      int maxConnections,
      int maxPending,
      Duration handshakeTimeout,
      Duration logInterval,
      Supplier<InboundFraming> framing) {
    public Settings {
      if (maxConnections < 1 || maxPending < 1 || maxPending > maxConnections) {
        throw new IllegalArgumentException(
            "max-connections must be >= 1 and max-pending in 1..max-connections");
      }
      if (handshakeTimeout.isNegative()
          || handshakeTimeout.isZero()
          || logInterval.isNegative()
          || logInterval.isZero()) {
        throw new IllegalArgumentException("handshake-timeout and log-interval must be > 0");
      }
    }

    /** Framing checks for Artery over TLS. */
    public static Supplier<InboundFraming> tls() {
      return InboundFraming.Tls::new;
    }

    /** Framing checks for Artery over plain tcp: its magics and frame bounds. */
    public static Supplier<InboundFraming> arteryTcp(
        List<byte[]> magics, int maxFrame, int maxLargeFrame) {
      List<byte[]> m = List.copyOf(magics);
      return () -> new InboundFraming.ArteryTcp(m, maxFrame, maxLargeFrame);
    }
  }

  private final Settings settings;
  private final ServerSocketChannel server;
  private final Selector selector;
  private final Map<String, LongAdder> counters = new ConcurrentSkipListMap<>();
  private final LogRateLimit logLimit;
  // connections not established yet, oldest first (all have the same deadline after accept)
  private final ArrayDeque<Conn> pendingQueue = new ArrayDeque<>();
  private final List<Conn> all = new ArrayList<>();
  private volatile int open;
  private volatile int pending;
  private volatile boolean closed;
  private InetSocketAddress node;
  private Thread thread;
  private long acceptPausedUntil;

  private ArteryGuard(Settings settings, ServerSocketChannel server, Selector selector) {
    this.settings = settings;
    this.server = server;
    this.selector = selector;
    this.logLimit = new LogRateLimit(settings.logInterval().toNanos(), 64);
    for (String k :
        List.of(
            ACCEPTED,
            ESTABLISHED,
            REFUSED_LIMIT,
            REFUSED_PENDING,
            HANDSHAKE_TIMEOUT,
            BAD_FRAMING,
            CLOSED_BEFORE_ESTABLISHED,
            NODE_UNREACHABLE,
            ACCEPT_FAILED,
            INTERNAL)) {
      counters.put(k, new LongAdder());
    }
  }

  /**
   * Listens on {@code host:port} (0: any free port); connections wait in the backlog until {@link
   * #start}.
   */
  public static ArteryGuard bind(String host, int port, Settings settings) throws IOException {
    ServerSocketChannel s = ServerSocketChannel.open();
    try {
      s.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      s.bind(new InetSocketAddress(host, port), 1024);
      s.configureBlocking(false);
      return new ArteryGuard(settings, s, Selector.open());
    } catch (IOException | RuntimeException e) {
      s.close();
      throw e;
    }
  }

  /** The port peers connect to (the node's canonical port). */
  public int port() {
    return ((InetSocketAddress) localAddress()).getPort();
  }

  private SocketAddress localAddress() {
    try {
      return server.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Starts relaying to Artery's real bind at {@code node}. */
  public synchronized void start(InetSocketAddress node) throws ClosedChannelException {
    this.node = node;
    server.register(selector, SelectionKey.OP_ACCEPT);
    thread = new Thread(this::run, "mqroute-artery-guard-" + port());
    thread.setDaemon(true);
    thread.start();
  }

  /** Inbound connections open now. */
  public int openConnections() {
    return open;
  }

  /** Of those, not established yet. */
  public int pendingConnections() {
    return pending;
  }

  /** Connections by outcome so far ({@link #ACCEPTED}, {@link #REFUSED_LIMIT}, ...). */
  public Map<String, Long> counters() {
    Map<String, Long> out = new TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** Stops listening and closes every connection it relays. */
  @Override
  public void close() {
    closed = true;
    selector.wakeup();
    Thread t;
    synchronized (this) {
      t = thread;
    }
    if (t != null && t != Thread.currentThread()) {
      try {
        t.join(TimeUnit.SECONDS.toMillis(10));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (t == null) {
      closeQuietly();
    }
  }

  private void closeQuietly() {
    for (Conn c : new ArrayList<>(all)) {
      c.close();
    }
    try {
      server.close();
      selector.close();
    } catch (IOException ignored) {
      // closing anyway
    }
  }

  private void run() {
    try {
      while (!closed) {
        long now = System.nanoTime();
        long wait = expirePending(now);
        if (acceptPausedUntil != 0) {
          if (now - acceptPausedUntil >= 0) {
            acceptPausedUntil = 0;
            server.keyFor(selector).interestOps(SelectionKey.OP_ACCEPT);
          } else {
            wait = wait == 0 ? ACCEPT_PAUSE_MS : Math.min(wait, ACCEPT_PAUSE_MS);
          }
        }
        selector.select(wait);
        Iterator<SelectionKey> it = selector.selectedKeys().iterator();
        while (it.hasNext()) {
          SelectionKey k = it.next();
          it.remove();
          if (!k.isValid()) {
            continue;
          }
          if (k.channel() == server) {
            accept();
          } else {
            End e = (End) k.attachment();
            try {
              e.ready(k);
            } catch (RuntimeException bug) {
              // one connection's trouble must not stop the guard, and with it the node's port
              refuse(INTERNAL, e.conn.peer, bug.toString());
              e.conn.close();
            }
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      if (!closed) {
        log.error("artery guard: stopped: {}", e.toString());
      }
    } finally {
      closeQuietly();
    }
  }

  /** Closes connections past their handshake deadline; returns how long select may wait (ms). */
  private long expirePending(long now) {
    long timeout = settings.handshakeTimeout().toNanos();
    while (!pendingQueue.isEmpty()) {
      Conn c = pendingQueue.peekFirst();
      long left = c.acceptedNanos + timeout - now;
      if (left > 0) {
        return Math.max(1, TimeUnit.NANOSECONDS.toMillis(left) + 1);
      }
      refuse(
          HANDSHAKE_TIMEOUT,
          c.peer,
          "not established after "
              + settings.handshakeTimeout().toMillis()
              + " ms ("
              + c.framing.progress()
              + ", "
              + c.fromPeer
              + " bytes from it)");
      c.close(); // takes it off the queue
    }
    return 0;
  }

  private void accept() {
    SocketChannel ch;
    while ((ch = acceptOne()) != null) {
      try {
        admit(ch);
      } catch (IOException | RuntimeException e) {
        // the peer reset it already, or no descriptor was left for the socket to the node
        refuse(NODE_UNREACHABLE, "-", "cannot relay a new connection: " + e);
        try {
          ch.close();
        } catch (IOException ignored) {
          // gone
        }
      }
    }
  }

  private void admit(SocketChannel ch) throws IOException {
    String peer = String.valueOf(ch.getRemoteAddress());
    if (open >= settings.maxConnections() || pending >= settings.maxPending()) {
      boolean full = open >= settings.maxConnections();
      refuse(
          full ? REFUSED_LIMIT : REFUSED_PENDING,
          peer,
          full
              ? open + " connections open (max-connections)"
              : pending + " connections not established yet (max-pending)");
      // a reset, not a FIN: the peer learns at once and no TIME_WAIT is left here
      ch.setOption(StandardSocketOptions.SO_LINGER, 0);
      ch.close();
      return;
    }
    SocketChannel up = SocketChannel.open();
    try {
      ch.configureBlocking(false);
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      up.configureBlocking(false);
      up.setOption(StandardSocketOptions.TCP_NODELAY, true);
      Conn c = new Conn(peer, System.nanoTime(), settings.framing().get());
      c.peerEnd = new End(c, ch, true, TO_NODE_BUFFER);
      c.nodeEnd = new End(c, up, false, TO_PEER_BUFFER);
      c.peerEnd.other = c.nodeEnd;
      c.nodeEnd.other = c.peerEnd;
      c.nodeEnd.connected = up.connect(node);
      c.peerEnd.key = ch.register(selector, 0, c.peerEnd);
      c.nodeEnd.key = up.register(selector, 0, c.nodeEnd);
      counters.get(ACCEPTED).increment();
      open++;
      pending++;
      all.add(c);
      pendingQueue.addLast(c);
      c.peerEnd.interest();
      c.nodeEnd.interest();
    } catch (IOException | RuntimeException e) {
      up.close();
      throw e;
    }
  }

  /**
   * The next pending connection, or null. When accepting fails (out of file descriptors), accepting
   * pauses for {@link #ACCEPT_PAUSE_MS}: the listening socket would otherwise stay ready and spin
   * this thread.
   */
  private SocketChannel acceptOne() {
    try {
      return server.accept();
    } catch (IOException e) {
      refuse(ACCEPT_FAILED, "-", "cannot accept: " + e.getMessage());
      server.keyFor(selector).interestOps(0);
      acceptPausedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACCEPT_PAUSE_MS);
      return null;
    }
  }

  private void refuse(String kind, String peer, String why) {
    counters.get(kind).increment();
    long held = logLimit.allow(kind, System.nanoTime());
    if (held >= 0) {
      log.warn(
          "artery guard: closed a connection from {}: {} ({} more like it since the last line)",
          peer,
          why,
          held);
    }
  }

  /** One relayed connection: the peer's socket and the guard's own socket to Artery. */
  private final class Conn {
    final String peer;
    final long acceptedNanos;
    final InboundFraming framing;
    End peerEnd;
    End nodeEnd;
    boolean established;
    boolean closed;
    long fromPeer;

    Conn(String peer, long acceptedNanos, InboundFraming framing) {
      this.peer = peer;
      this.acceptedNanos = acceptedNanos;
      this.framing = framing;
    }

    void inspect(End from, ByteBuffer buf, int start, int n) {
      if (from.fromPeer) {
        fromPeer += n;
      }
      String bad = framing.inspect(from.fromPeer, buf, start, n);
      if (bad != null) {
        refuse(BAD_FRAMING, peer, bad);
        close();
        return;
      }
      if (!established && framing.established()) {
        established = true;
        pending--;
        pendingQueue.remove(this);
        counters.get(ESTABLISHED).increment();
      }
    }

    /**
     * Ends both sides. Unless both ended cleanly, the node's side is reset: Artery may hold part of
     * a frame from this peer, and a clean end would make it report a truncated frame (with a stack
     * trace); a reset ends its stream without one.
     */
    void close() {
      if (closed) {
        return;
      }
      closed = true;
      if (!(peerEnd.eof && nodeEnd.eof)) {
        try {
          nodeEnd.ch.setOption(StandardSocketOptions.SO_LINGER, 0);
        } catch (IOException | RuntimeException notOpen) {
          // closing anyway
        }
      }
      open--;
      if (!established) {
        pending--;
        // the queue holds pending connections only (at most max-pending): a closed one would keep
        // its buffers until its deadline came round
        pendingQueue.remove(this);
      }
      all.remove(this);
      peerEnd.closeChannel();
      nodeEnd.closeChannel();
    }
  }

  /** One socket of a connection and the bytes read from it that wait to be written to the other. */
  private final class End {
    final Conn conn;
    final SocketChannel ch;
    final boolean fromPeer;
    final ByteBuffer buf;
    End other;
    SelectionKey key;
    boolean connected = true;
    boolean eof;
    boolean outputShut;

    End(Conn conn, SocketChannel ch, boolean fromPeer, int size) {
      this.conn = conn;
      this.ch = ch;
      this.fromPeer = fromPeer;
      this.buf = ByteBuffer.allocate(size);
    }

    void ready(SelectionKey k) {
      try {
        if (k.isConnectable()) {
          ch.finishConnect();
          connected = true;
        }
        if (k.isValid() && k.isReadable()) {
          read();
        }
        if (!conn.closed && k.isValid() && k.isWritable()) {
          other.flushTo(this);
        }
        if (!conn.closed) {
          interest();
          other.interest();
          if (eof && other.eof && outputShut && other.outputShut) {
            conn.close();
          }
        }
      } catch (IOException e) {
        if (!fromPeer && !connected) {
          refuse(NODE_UNREACHABLE, conn.peer, "cannot reach the node's Artery port");
        } else if (!conn.established && fromPeer) {
          counters.get(CLOSED_BEFORE_ESTABLISHED).increment();
        }
        conn.close();
      }
    }

    private void read() throws IOException {
      int start = buf.position();
      int n = ch.read(buf);
      if (n < 0) {
        eof = true;
        if (!conn.established && !fromPeer) {
          // the node hung up before the handshake was done: it refused the peer
          counters.get(CLOSED_BEFORE_ESTABLISHED).increment();
        }
      } else if (n > 0) {
        conn.inspect(this, buf, start, n);
      }
      if (!conn.closed && other.connected) {
        flushTo(other);
      }
    }

    /** Writes what was read from this end to {@code to}; half-closes it once this end is done. */
    void flushTo(End to) throws IOException {
      if (!to.connected) {
        return;
      }
      if (buf.position() > 0) {
        buf.flip();
        to.ch.write(buf);
        buf.compact();
      }
      if (eof && buf.position() == 0 && !to.outputShut) {
        to.outputShut = true;
        if (fromPeer && !conn.framing.atBoundary()) {
          conn.close(); // the peer stopped inside a frame: a reset, see Conn.close
          return;
        }
        to.ch.shutdownOutput();
      }
    }

    void interest() {
      if (!key.isValid()) {
        return;
      }
      int ops;
      if (!connected) {
        ops = SelectionKey.OP_CONNECT;
      } else {
        ops = 0;
        if (!eof && buf.hasRemaining()) {
          ops |= SelectionKey.OP_READ;
        }
        if (other.buf.position() > 0 || (other.eof && !outputShut)) {
          ops |= SelectionKey.OP_WRITE;
        }
      }
      key.interestOps(ops);
    }

    void closeChannel() {
      if (key != null) {
        key.cancel();
      }
      try {
        ch.close();
      } catch (IOException ignored) {
        // already gone
      }
    }
  }
}
