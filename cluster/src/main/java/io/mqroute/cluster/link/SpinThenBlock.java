package io.mqroute.cluster.link;

import io.netty.channel.SelectStrategy;
import io.netty.channel.SelectStrategyFactory;
import io.netty.util.IntSupplier;
import java.util.function.LongSupplier;

/**
 * The node loop's wait for work: poll (epoll_wait with no timeout) for up to {@code spinNanos}
 * after the last work, and only then block. A thread that blocks pays a sleep and a wake-up each
 * time its next batch comes (about 20 µs of CPU on this VM's vCPUs: {@code cpu/SleepWakeCost},
 * issue #21), and its sender pays the wake-up's IPI; a batch that comes within the spin finds the
 * thread awake. The spin yields the CPU ({@code sched_yield}) between polls, so a runnable thread
 * on the same CPU (the client, the other node) is not held up by it. Spinning no longer than a
 * sleep and a wake-up cost is the classic competitive bound (at most twice the better choice); the
 * kernel's {@code net.core.busy_poll} and the guest's {@code haltpoll} idle driver make the same
 * trade.
 */
public final class SpinThenBlock implements SelectStrategy {
  private final long spinNanos;
  private final LongSupplier clock;
  private long lastWork;
  private boolean blocked;

  SpinThenBlock(long spinNanos, LongSupplier clock) {
    this.spinNanos = checked(spinNanos);
    this.clock = clock;
    this.lastWork = clock.getAsLong();
  }

  /** A factory for the loop's IoHandler: one strategy per loop thread. */
  public static SelectStrategyFactory factory(long spinNanos) {
    checked(spinNanos); // now, not when the loop starts
    return () -> new SpinThenBlock(spinNanos, System::nanoTime);
  }

  private static long checked(long spinNanos) {
    if (spinNanos < 0) {
      throw new IllegalArgumentException("spinNanos must be >= 0, was " + spinNanos);
    }
    return spinNanos;
  }

  @Override
  public int calculateStrategy(IntSupplier selectNow, boolean hasTasks) throws Exception {
    if (spinNanos == 0) {
      return hasTasks ? selectNow.get() : SELECT;
    }
    int ready = selectNow.get();
    long now = clock.getAsLong();
    if (ready > 0 || hasTasks || blocked) { // a blocking wait ended: something woke the thread
      blocked = false;
      lastWork = now;
      return ready;
    }
    if (now - lastWork < spinNanos) {
      Thread.yield();
      return CONTINUE;
    }
    blocked = true;
    return SELECT;
  }
}
