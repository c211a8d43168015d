package io.mqroute.nbd;

import io.mqroute.nbd.NbdConnection.Action;
import io.mqroute.nbd.NbdConnection.Close;
import io.mqroute.nbd.NbdConnection.Disconnect;
import io.mqroute.nbd.NbdConnection.Send;
import io.mqroute.nbd.NbdConnection.Submit;
import io.mqroute.protocol.RequestTrace;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.util.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One NBD connection on its event loop: the socket's bytes in, the server's bytes out. It feeds an
 * {@link NbdConnection} and acts on what it decodes: option replies go out at once, requests go to
 * the connection's {@link NbdBackend.BatchSession} and their simple replies go out as they end, in
 * any order (matched by cookie); what one read decoded goes to the session in one call, and what it
 * answers in one call leaves in one write. Backpressure: at most {@code maxInFlight} requests are
 * between decoding and their reply leaving; at the bound it stops reading the socket (auto-read
 * off), so a fast client waits in TCP, never in memory; replies wait while the socket's outbound
 * buffer is over its high-water mark.
 *
 * <p>A handshake that has not reached the transmission phase within its timeout ends the
 * connection; so does anything {@link NbdConnection} calls a hard disconnect. A soft disconnect
 * (NBD_CMD_DISC) answers what is in flight first, as the spec requires.
 */
final class NbdChannelHandler extends ChannelInboundHandlerAdapter {
  private static final Logger log = LoggerFactory.getLogger(NbdChannelHandler.class);

  private final NbdServerSettings settings;
  private final NbdBackend backend;
  private final int index;
  private final String peer;
  private final NbdServerStats stats;
  private final NbdConnection conn;
  private final List<ByteString> outbox = new ArrayList<>();
  private final List<NbdBackend.Submission> submissions = new ArrayList<>();
  // RequestTrace only: cookie -> the request's key, and the keys of replies not written yet
  private final HashMap<Long, Long> traced = new HashMap<>();
  private final List<Long> sentKeys = new ArrayList<>();
  private Channel ch;
  private NbdBackend.BatchSession session;
  private ScheduledFuture<?> handshakeTimer;
  private int inFlight; // submitted, reply not yet handed to the socket
  private boolean ending; // no more actions: a close or a disconnect, or the client went away
  private boolean hardClose;
  private boolean clientDone;
  private boolean transmission;
  private boolean closed;

  NbdChannelHandler(
      NbdServerSettings settings,
      NbdBackend backend,
      int index,
      String peer,
      NbdServerStats stats) {
    this.settings = settings;
    this.backend = backend;
    this.index = index;
    this.peer = peer;
    this.stats = stats;
    this.conn = new NbdConnection(settings.exportName(), backend.size(), settings.maxOptions());
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    ch = ctx.channel();
    // answers come from the backend's thread (an actor, usually on this same loop: no wake-up)
    session =
        backend.openBatched(index, answers -> ch.eventLoop().execute(() -> onAnswers(answers)));
    outbox.add(conn.greeting());
    handshakeTimer =
        ch.eventLoop()
            .schedule(
                this::onHandshakeTimeout,
                settings.handshakeTimeout().toNanos(),
                TimeUnit.NANOSECONDS);
    drive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    ByteBuf buf = (ByteBuf) msg;
    try {
      if (!ending) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        conn.feed(ByteString.fromArrayUnsafe(bytes));
      }
    } finally {
      buf.release();
    }
    drive();
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    flush();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    drive();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    clientDone = true;
    ending = true;
    stop();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug("nbd connection {} ({}): {}", index, peer, cause.toString());
    closeNow();
  }

  private void onHandshakeTimeout() {
    if (!conn.inTransmission() && !ending) {
      stats.countAndLog(
          log,
          NbdServerStats.HANDSHAKE_TIMEOUT,
          "nbd connection from {}: no transmission phase after {} (handshake-timeout), closed",
          peer,
          settings.handshakeTimeout());
      closeNow();
    }
  }

  private boolean mayTakeMore() {
    return !ending && inFlight + outbox.size() < settings.maxInFlight();
  }

  /** Decodes and acts while the bound allows, then reads on only when that is what is missing. */
  private void drive() {
    if (closed) {
      return;
    }
    boolean needInput;
    do {
      // what left makes room under the bound: decode on (a write does not call back as a pull does)
      flush();
      needInput = false;
      while (mayTakeMore()) {
        Action a = conn.next();
        if (a == null) {
          needInput = true;
          break;
        }
        act(a);
      }
      submitDecoded();
      if (conn.inTransmission() && !transmission) {
        transmission = true;
        stats.inTransmission.incrementAndGet();
        stats.count(NbdServerStats.TRANSMISSION);
        handshakeTimer.cancel(false);
      }
      flush();
    } while (!needInput && mayTakeMore());
    ch.config().setAutoRead(needInput && !clientDone);
    finishIfDone();
  }

  private void act(Action a) {
    if (a instanceof Send s) {
      outbox.add(s.bytes());
    } else if (a instanceof Submit s) {
      inFlight++;
      long submitNanos = System.nanoTime();
      if (RequestTrace.ON) {
        RequestTrace.mark(RequestTrace.NBD_DECODED, submitNanos);
        traced.put(s.cookie(), submitNanos);
      }
      submissions.add(
          new NbdBackend.Submission(
              s.cookie(), s.op(), s.offset(), s.length(), s.data(), submitNanos));
    } else if (a instanceof Close c) {
      stats.countAndLog(
          log,
          NbdServerStats.PROTOCOL_ERROR,
          "nbd connection from {}: closed: {}",
          peer,
          c.reason());
      ending = true;
      hardClose = true;
    } else if (a instanceof Disconnect d) {
      log.debug("nbd connection {} ({}): {}", index, peer, d.reason());
      ending = true;
    }
  }

  /** What this drive decoded goes to the session in one call (one message to its actor). */
  private void submitDecoded() {
    if (submissions.isEmpty()) {
      return;
    }
    List<NbdBackend.Submission> batch = List.copyOf(submissions);
    submissions.clear();
    try {
      session.submit(batch);
    } catch (RuntimeException e) {
      // every one of them is answered anyway (EIO for the refused ones)
      stats.countAndLog(
          log,
          NbdServerStats.BACKEND_REFUSED,
          "nbd connection {}: backend refused a request: {}",
          index,
          e.toString());
    }
  }

  private void onAnswers(List<NbdBackend.Answer> answers) {
    for (NbdBackend.Answer a : answers) {
      inFlight--;
      if (RequestTrace.ON) {
        Long key = traced.remove(a.cookie());
        if (key != null) {
          RequestTrace.mark(RequestTrace.NBD_REPLY, key);
          sentKeys.add(key);
        }
      }
      if (!hardClose && !clientDone) {
        outbox.add(NbdWire.simpleReply(a.reply().error(), a.cookie(), a.reply().data()));
      }
    }
    drive();
  }

  /** The outbox in one write, while the socket's outbound buffer has room. */
  private void flush() {
    if (outbox.isEmpty() || closed || !ch.isWritable()) {
      return;
    }
    // every reply's fragments (headers, the read data as the device sent it) copied once, straight
    // into the socket's own (direct) buffer: a joined array, or a composite of the fragments, was
    // copied into a heap array and then again into a direct one (12-15 % of the host's CPU at
    // iodepth 32)
    int bytes = 0;
    for (ByteString b : outbox) {
      bytes += b.size();
    }
    ByteBuf out = ch.alloc().ioBuffer(bytes);
    for (ByteString b : outbox) {
      for (ByteBuffer part : b.getByteBuffers()) {
        out.writeBytes(part);
      }
    }
    outbox.clear();
    if (RequestTrace.ON) {
      sentKeys.forEach(k -> RequestTrace.mark(RequestTrace.NBD_SENT, k));
      sentKeys.clear();
    }
    ch.writeAndFlush(out, ch.voidPromise());
  }

  /** Closes once nothing more will come: after a soft disconnect, also nothing in flight. */
  private void finishIfDone() {
    if (!ending || !outbox.isEmpty() || closed) {
      return;
    }
    if (hardClose || inFlight == 0 || clientDone) {
      closed = true;
      // after what was written has left
      ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }
  }

  private void closeNow() {
    ending = true;
    closed = true;
    ch.close();
  }

  private void stop() {
    closed = true;
    if (handshakeTimer != null) {
      handshakeTimer.cancel(false);
    }
    if (transmission) {
      transmission = false;
      stats.inTransmission.decrementAndGet();
    }
    if (session != null) {
      session.close();
      session = null;
    }
  }
}
