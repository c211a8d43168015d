package io.mqroute.policies.queue;

import io.mqroute.policies.Params;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The ring a queue puts requests on, as the transport to its server holds it: {@link #size()}
 * slots, {@link #limit()} of them usable, each held from an accepted {@link #offer} until {@link
 * #release} (virtqueue_add_sgs takes descriptors; the harvest's virtqueue_get_buf gives them back).
 * The free slots are the server's demand: the ring refuses an offer beyond them (the ring is full:
 * -ENOSPC), and a release is the demand that lets the queue's refill put the next request on. The
 * ring keeps the only count of held slots; {@link RingQueue} reads it, never keeps a second one.
 *
 * <p>In the machine and on a device node the ring is a Pekko Streams stage ({@code RingStage} in
 * {@code io.mqroute.actors.machine}); {@link #counting} is the same count without a stream, for
 * tests and for a caller that hands requests to its server itself. Called by the queue's single
 * owner only.
 *
 * @param <T> what travels on the ring
 */
public interface Ring<T> {

  /**
   * Puts {@code item} on the ring if a usable slot is free and holds the slot until {@link
   * #release}; false, with nothing done, when {@link #held()} {@code >=} {@link #limit()}.
   */
  boolean offer(T item);

  /** A harvested completion gives its slot back. */
  void release();

  /** Slots held now: on the server, or done and not yet harvested. */
  int held();

  /** Slots the ring was built with. */
  int size();

  /** Usable slots: {@link #size()}, less during a ring-full storm. */
  int limit();

  /**
   * Makes only {@code usable} (1..{@link #size()}) slots usable; slots held above it stay held
   * until released.
   */
  void limit(int usable);

  /** The demand: offers the ring accepts now. */
  default int free() {
    return Math.max(0, limit() - held());
  }

  /** A ring of {@code size} slots that hands every accepted item to {@code server} at once. */
  static <T> Ring<T> counting(int size, Consumer<? super T> server) {
    return new Counting<>(size, server);
  }

  /** The slot count of a ring, with the transport given as a function. */
  final class Counting<T> implements Ring<T> {
    private final int size;
    private final Consumer<? super T> server;
    private int limit;
    private int held;

    /**
     * @param size slots, 1..2^20 (the ring-size range of an experiment)
     * @param server where an accepted item goes, called inside {@link #offer}
     */
    public Counting(int size, Consumer<? super T> server) {
      this.size = Params.checkRange("ring-size", size, 1, 1 << 20);
      this.server = Objects.requireNonNull(server, "server");
      this.limit = size;
    }

    @Override
    public boolean offer(T item) {
      if (held >= limit) {
        return false;
      }
      held++;
      server.accept(item);
      return true;
    }

    @Override
    public void release() {
      if (held == 0) {
        throw new IllegalStateException("release with no slot held");
      }
      held--;
    }

    @Override
    public int held() {
      return held;
    }

    @Override
    public int size() {
      return size;
    }

    @Override
    public int limit() {
      return limit;
    }

    @Override
    public void limit(int usable) {
      limit = Params.checkRange("usable ring slots", usable, 1, size);
    }

    @Override
    public String toString() {
      return "Ring[" + held + "/" + limit + "/" + size + "]";
    }
  }
}
