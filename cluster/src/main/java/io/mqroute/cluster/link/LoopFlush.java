package io.mqroute.cluster.link;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.AttributeKey;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes that leave at the end of the event loop's turn, all in one flush: one TLS record run and
 * one send for every frame the node's actors wrote in that turn (several queues, a completion batch
 * each), where a flush per frame paid a send — and on loopback the receiver's TCP processing — per
 * frame. The frames still leave in the turn that wrote them: the flush runs after the turn's tasks
 * ({@link SingleThreadEventLoop#executeAfterEventLoopIteration}), before the loop waits again, so
 * nothing waits for more traffic (no Nagle).
 */
final class LoopFlush implements Runnable {
  private static final AttributeKey<LoopFlush> KEY = AttributeKey.valueOf("mqroute.loop-flush");

  private final Channel ch;
  private final AtomicBoolean scheduled = new AtomicBoolean();

  private LoopFlush(Channel ch) {
    this.ch = ch;
  }

  /** Writes {@code buf} to {@code ch} now; the flush follows at the end of the loop's turn. */
  static void write(Channel ch, ByteBuf buf) {
    ch.write(buf, ch.voidPromise());
    LoopFlush f = ch.attr(KEY).get();
    if (f == null) {
      f = new LoopFlush(ch);
      LoopFlush raced = ch.attr(KEY).setIfAbsent(f);
      if (raced != null) {
        f = raced;
      }
    }
    if (f.scheduled.compareAndSet(false, true)) {
      EventLoop loop = ch.eventLoop();
      if (loop.inEventLoop() && loop instanceof SingleThreadEventLoop turn) {
        turn.executeAfterEventLoopIteration(f);
      } else {
        loop.execute(f); // behind the write this thread just queued
      }
    }
  }

  @Override
  public void run() {
    scheduled.set(false);
    ch.flush();
  }
}
