package io.mqroute.actors.machine;

import io.mqroute.policies.queue.Ring;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.pekko.japi.Pair;
import org.apache.pekko.stream.Attributes;
import org.apache.pekko.stream.Outlet;
import org.apache.pekko.stream.SourceShape;
import org.apache.pekko.stream.javadsl.Source;
import org.apache.pekko.stream.stage.AbstractGraphStageWithMaterializedValue;
import org.apache.pekko.stream.stage.AbstractOutHandler;
import org.apache.pekko.stream.stage.AsyncCallback;
import org.apache.pekko.stream.stage.GraphStageLogic;

/**
 * A queue's ring as one Pekko Streams stage: the avail and used rings of a virtqueue (vring_avail,
 * vring_used; the ring entries of a fuse-over-io-uring queue). Its materialized value is the
 * queue's {@link Ring}, whose demand is the ring's free slots: an offer takes a slot or is refused
 * (the ring is full: -ENOSPC, and the queue parks the request); the slot stays held while the
 * server works and until the queue harvests the completion and releases it, and that release is the
 * demand the queue's refill answers with the next parked request. So a slow server backpressures
 * the queue instead of growing a mailbox: at most {@code size} requests are between the queue and
 * the server (the server's mailbox and batch included), whatever the producer does.
 *
 * <p>The queue offers on its own thread; an accepted item goes into the avail array (one entry per
 * slot, so it cannot overflow) and wakes the stage if it was idle. The stage hands each item to the
 * {@link Server} with a completion callback; the server calls it from its own thread when the
 * device is done, and the stage emits the item downstream (the used ring), towards the queue's
 * harvest. The same stage runs in virtual time (the stream's actor on the run queue) and in real
 * time.
 *
 * @param <T> what travels on the ring
 */
public final class RingStage<T>
    extends AbstractGraphStageWithMaterializedValue<SourceShape<T>, Ring<T>> {

  /** The ring's consumer: starts serving {@code item} and calls {@code done} when it is done. */
  @FunctionalInterface
  public interface Server<T> {
    void serve(T item, Consumer<T> done);
  }

  private final int size;
  private final Server<T> server;
  private final Outlet<T> out = Outlet.create("ring.used");
  private final SourceShape<T> shape = SourceShape.of(out);

  private RingStage(int size, Server<T> server) {
    this.size = size;
    this.server = Objects.requireNonNull(server, "server");
  }

  /**
   * A ring of {@code size} slots feeding {@code server}; it emits what the server has done, in the
   * order it finished. Materializes the queue's side of the ring.
   */
  public static <T> Source<T, Ring<T>> source(int size, Server<T> server) {
    return Source.fromGraph(new RingStage<>(size, server));
  }

  /**
   * The same ring fused with its queue, for a queue that is itself the stage's only producer and
   * consumer: an accepted offer is handed to {@code server} inside the offer (the stream's hop to
   * its own actor becomes a method call), and the server's completion goes straight to {@code used}
   * (the queue's own mailbox) instead of back through the stream. The ring's count is the same
   * {@link Ring}: an offer beyond the free slots is refused and a slot is held until released, so
   * it stays the backpressure (at most {@code size} items between the queue and the server).
   */
  public static <T> Ring<T> fused(int size, Server<T> server, Consumer<T> used) {
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(used, "used");
    return Ring.counting(size, item -> server.serve(item, used));
  }

  @Override
  public SourceShape<T> shape() {
    return shape;
  }

  @Override
  public Pair<GraphStageLogic, Ring<T>> createLogicAndMaterializedValuePair(Attributes attrs) {
    Logic logic = new Logic(new Avail<>(size));
    return Pair.create(logic, Ring.counting(size, logic::handOff));
  }

  private final class Logic extends GraphStageLogic {
    private final Avail<T> avail;

    /** Done by the server, not yet pulled downstream. */
    private final ArrayDeque<T> used = new ArrayDeque<>();

    /** The stage waits for an offer: the next one must wake it. */
    private final AtomicBoolean idle = new AtomicBoolean();

    private final AsyncCallback<Boolean> wake;
    private final Consumer<T> done;

    Logic(Avail<T> avail) {
      super(shape);
      this.avail = avail;
      this.wake = createAsyncCallback(b -> drain());
      AsyncCallback<T> served = createAsyncCallback(this::onServed);
      this.done = served::invoke;
      setHandler(
          out,
          new AbstractOutHandler() {
            @Override
            public void onPull() {
              T next = used.pollFirst();
              if (next != null) {
                push(out, next);
              }
            }
          });
    }

    /** On the queue's thread: the ring took {@code item}. */
    void handOff(T item) {
      avail.add(item);
      if (idle.get() && idle.compareAndSet(true, false)) {
        wake.invoke(Boolean.TRUE);
      }
    }

    @Override
    public void preStart() {
      drain(); // what was offered before the stage started
    }

    /** Hands everything offered to the server, then waits for the next offer. */
    private void drain() {
      while (true) {
        T item = avail.poll();
        if (item != null) {
          server.serve(item, done);
          continue;
        }
        idle.set(true);
        // an offer between the empty poll and idle=true did not wake us: take it now, unless the
        // offer that saw idle has already sent the wake-up
        if (avail.isEmpty() || !idle.compareAndSet(true, false)) {
          return;
        }
      }
    }

    private void onServed(T item) {
      if (isAvailable(out)) {
        push(out, item);
      } else {
        used.addLast(item);
      }
    }
  }

  /**
   * The avail ring: one producer (the queue), one consumer (the stage), an entry per slot. Never
   * fuller than the slots held, so it needs no bound check beyond a guard.
   */
  private static final class Avail<T> {
    private final Object[] entries;
    private final int mask;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();

    Avail(int slots) {
      int n = Integer.highestOneBit(Math.max(1, slots - 1)) << 1;
      entries = new Object[n];
      mask = n - 1;
    }

    void add(T item) {
      long t = tail.get();
      if (t - head.get() >= entries.length) {
        throw new IllegalStateException("avail ring over " + entries.length + " entries");
      }
      entries[(int) (t & mask)] = item;
      tail.set(t + 1); // a full fence: the consumer's idle flag is read after this store (Dekker)
    }

    @SuppressWarnings("unchecked")
    T poll() {
      long h = head.get();
      if (h == tail.get()) {
        return null;
      }
      int i = (int) (h & mask);
      T item = (T) entries[i];
      entries[i] = null;
      head.lazySet(h + 1);
      return item;
    }

    boolean isEmpty() {
      return head.get() == tail.get();
    }
  }
}
