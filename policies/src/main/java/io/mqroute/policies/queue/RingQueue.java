package io.mqroute.policies.queue;

import io.mqroute.policies.Params;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The queueing decisions of one virtio-fs queue (virtio_fs_enqueue_req,
 * virtio_fs_request_dispatch_work), with no transport: the overflow list ({@code queued_reqs}) with
 * the time each request started waiting, the {@link FullRingStrategy}, the {@link
 * EnqueueErrorPolicy} and the counters and invariants of architecture.md §4, in front of a {@link
 * Ring} that holds the slots. The ring decides whether a request fits (its free slots are the
 * server's demand) and keeps the only count of held slots; this class decides what a refusal means
 * (park, retry timer, ENOMEM requeue) and when freed slots are refilled. The queue actor runs its
 * requests through it in virtual time and on a device node alike.
 *
 * <p>The caller is the queue's single owner (an actor): it gives every decision's effect to its
 * {@link Port} synchronously, inside the call that took it. A port must not call back into this
 * queue from a port method (a server that completes a request at once reports that after the call
 * returns), which keeps the dispatch loop simple: no re-entrant refill.
 *
 * <p>Life of a request: {@link #enqueue} offers it to the ring ({@link Ring#offer}, then {@link
 * Port#toRing}) or parks it when the ring refuses, or ends it with ENOMEM ({@link
 * Port#failNoMemory}); once the server is done, {@link #complete()} releases its slot, and {@link
 * #refill} (after a batch of completions) or {@link #retry} (the timer of {@link Port#armRetry})
 * offers parked requests to the freed slots. Not thread-safe; no allocation per request beyond the
 * deques' growth.
 *
 * @param <T> what the caller queues (its request with whatever it needs to end it)
 */
public final class RingQueue<T> {

  /** Where the queue's decisions take effect; called synchronously, never re-entered. */
  public interface Port<T> {
    /**
     * The ring took {@code item} (it is on its way to the server; its slot is held until {@link
     * RingQueue#complete()}).
     */
    void toRing(T item);

    /**
     * Adding {@code item} failed with {@code -ENOMEM} and the policy fails it: end it with ENOMEM.
     */
    void failNoMemory(T item);

    /**
     * delayed-retry only: call {@link RingQueue#retry} in {@code delayNanos} (at most one timer is
     * armed).
     */
    void armRetry(long delayNanos);
  }

  /** What {@code virtqueue_add_sgs} answered. */
  private enum Add {
    OK,
    ENOSPC,
    ENOMEM
  }

  private final Ring<T> ring;
  private final FullRingStrategy fullRing;
  private final EnqueueErrorPolicy enqueueError;

  /** The configured ENOMEM rate: what {@link #resetFaults()} returns to. */
  private final double configuredEnomem;

  private final RandomSource faults;
  private final Port<T> port;

  private double enomemProbability;

  private final ArrayDeque<T> overflow = new ArrayDeque<>();

  /**
   * virtio's dispatch work re-queues the first misfit at the tail; fuse-io-uring's queue keeps it
   * at the head.
   */
  private final boolean misfitToTail;

  /**
   * When each overflow entry started waiting, in the same order (kept apart: no wrapper per park).
   */
  private final LongDeque overflowSince = new LongDeque();

  private boolean retryArmed;

  private long accepted;
  private long completed;
  private long rerouted;
  private int maxOccupancy;
  private long overflowWaits;
  private long overflowNanos;
  private long delayedRetries;
  private long enomem;
  private long ringAttempts;

  private RingQueue(Builder<T> b) {
    this.misfitToTail = b.misfitToTail;
    this.ring = b.ring;
    this.fullRing = b.fullRing;
    this.enqueueError = b.enqueueError;
    this.configuredEnomem = b.enomemProbability;
    this.enomemProbability = b.enomemProbability;
    this.faults = b.faults;
    this.port = b.port;
  }

  /**
   * @param port where the decisions take effect
   * @param ring the slots, with the transport to the server, none held yet; its size is the queue's
   *     ring size
   */
  public static <T> Builder<T> newBuilder(Port<T> port, Ring<T> ring) {
    return new Builder<>(port, ring);
  }

  /**
   * virtio_fs_send_req: try the ring; park on the overflow list on -ENOSPC; -ENOMEM per the policy.
   */
  public void enqueue(T item, long now) {
    accepted++;
    switch (addToRing(item)) {
      case OK -> {}
      case ENOSPC -> park(item, now);
      case ENOMEM -> {
        if (enqueueError.requeueOnNoMemory()) {
          park(item, now); // the V2 bug: nothing but a completion (or the timer) looks at it again
        } else {
          completed++;
          port.failNoMemory(item);
        }
      }
    }
  }

  /**
   * Counts a request as accepted that never reaches the ring (the chaos LOSE fault: a broken
   * queue).
   */
  public void acceptLost() {
    accepted++;
  }

  /**
   * virtqueue_get_buf: the server is done with one request; its slot goes back to the ring (refill
   * with {@link #refill}).
   */
  public void complete() {
    ring.release();
    completed++;
  }

  /**
   * virtio_fs_requests_done_work after a batch of completions: under refill-on-completion it runs
   * the dispatch work; under delayed-retry the completion does not look at the overflow list (only
   * the timer does).
   */
  public void refill(long now) {
    if (fullRing.refillsOnCompletion()) {
      dispatchQueued(now);
    }
  }

  /** The delayed dispatch work armed through {@link Port#armRetry} ran. */
  public void retry(long now) {
    retryArmed = false;
    delayedRetries++;
    dispatchQueued(now);
    if (!overflow.isEmpty()) {
      armRetry();
    }
  }

  /**
   * blk_mq_hctx_notify_offline's spirit: nothing waits here any more; every parked request goes to
   * {@code reroute} (in list order) and counts as re-routed, not completed.
   */
  public void evacuate(long now, Consumer<T> reroute) {
    while (!overflow.isEmpty()) {
      T item = overflow.pollFirst();
      overflowNanos += now - overflowSince.pollFirst();
      rerouted++;
      reroute.accept(item);
    }
  }

  /**
   * A ring-full storm: only {@code usable} slots (1..ringSize) take requests. Back at the full size
   * under refill-on-completion, the completion that ended the storm refills.
   */
  public void setRingLimit(int usable, long now) {
    ring.limit(Params.checkRange("usable ring slots", usable, 1, ring.size()));
    if (usable == ring.size() && fullRing.refillsOnCompletion()) {
      dispatchQueued(now);
    }
  }

  /** An injected ENOMEM rate in [0, 1] (chaos), or the configured one again. */
  public void setEnomemProbability(double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("enomem probability must be in [0, 1], was " + p);
    }
    if (p > 0 && faults == null) {
      throw new IllegalStateException(
          "an ENOMEM probability needs a random source (see Builder.enomem)");
    }
    enomemProbability = p;
  }

  /** A fresh mount: the configured ENOMEM rate and the whole ring again. */
  public void resetFaults() {
    enomemProbability = configuredEnomem;
    ring.limit(ring.size());
  }

  /**
   * Adds a line to {@code out} for every broken invariant: the ring bound, now and at its peak (a
   * check at the end of a run, when the ring is empty, still sees an overfill in the middle of it),
   * and in_flight == on_ring + queued.
   */
  public void checkInvariants(List<String> out) {
    int onRing = ring.held();
    int ringSize = ring.size();
    if (onRing > ringSize || onRing < 0) {
      out.add("ring occupancy " + onRing + " outside [0, " + ringSize + "]");
    }
    if (maxOccupancy > ringSize) {
      out.add("ring occupancy reached " + maxOccupancy + " > ring size " + ringSize);
    }
    long inFlight = inFlight();
    if (inFlight != onRing + overflow.size()) {
      out.add("in_flight " + inFlight + " != on_ring " + onRing + " + queued " + overflow.size());
    }
  }

  /** The parked requests, head first. */
  public void forEachQueued(Consumer<T> action) {
    overflow.forEach(action);
  }

  /**
   * virtqueue_add_sgs: a slot the ring gives, or -ENOSPC when it refuses (full), or an injected
   * -ENOMEM.
   */
  private Add addToRing(T item) {
    ringAttempts++;
    if (enomemProbability > 0 && faults.nextDouble() < enomemProbability) {
      enomem++;
      return Add.ENOMEM;
    }
    if (!ring.offer(item)) {
      return Add.ENOSPC;
    }
    maxOccupancy = Math.max(maxOccupancy, ring.held());
    port.toRing(item);
    return Add.OK;
  }

  private void park(T item, long now) {
    overflow.addLast(item);
    overflowSince.addLast(now);
    overflowWaits++;
    armRetry();
  }

  private void armRetry() {
    if (!fullRing.refillsOnCompletion() && !retryArmed) {
      retryArmed = true;
      port.armRetry(fullRing.retryDelayNanos());
    }
  }

  /**
   * virtio_fs_request_dispatch_work: move queued requests to the ring from the head; the first that
   * does not fit goes back to the TAIL (so a refill reorders the overflow list, as the kernel
   * does). For a fuse-io-uring queue ({@link Builder#misfitStaysAtHead()}) it stays at the head:
   * fuse_uring_next_fuse_req always takes the first request of fuse_req_queue.
   */
  private void dispatchQueued(long now) {
    while (!overflow.isEmpty()) {
      T item = overflow.pollFirst();
      long since = overflowSince.pollFirst();
      Add r = addToRing(item);
      if (r == Add.OK) {
        overflowNanos += now - since;
        continue;
      }
      if (r == Add.ENOMEM && !enqueueError.requeueOnNoMemory()) {
        overflowNanos += now - since;
        completed++;
        port.failNoMemory(item);
        continue;
      }
      if (misfitToTail) {
        overflow.addLast(item);
        overflowSince.addLast(since);
      } else {
        overflow.addFirst(item);
        overflowSince.addFirst(since);
      }
      return;
    }
  }

  public int ringSize() {
    return ring.size();
  }

  public FullRingStrategy fullRing() {
    return fullRing;
  }

  public EnqueueErrorPolicy enqueueError() {
    return enqueueError;
  }

  public double enomemProbability() {
    return enomemProbability;
  }

  /** The ENOMEM rate the queue was built with. */
  public double configuredEnomemProbability() {
    return configuredEnomem;
  }

  /** Slots held: on the server, or done but not yet harvested (the ring's count). */
  public int onRing() {
    return ring.held();
  }

  /** Requests on the overflow list. */
  public int queued() {
    return overflow.size();
  }

  /**
   * Accepted and not yet ended or re-routed (equals {@code onRing() + queued()} while the invariant
   * holds).
   */
  public long inFlight() {
    return accepted - completed - rerouted;
  }

  public long accepted() {
    return accepted;
  }

  /** Ended here: completions and ENOMEM failures. */
  public long completed() {
    return completed;
  }

  public long rerouted() {
    return rerouted;
  }

  public int maxOccupancy() {
    return maxOccupancy;
  }

  /** Requests that had to park (each time one parked). */
  public long overflowWaits() {
    return overflowWaits;
  }

  /** Total time parked requests waited before they got a slot, ended or left. */
  public long overflowNanos() {
    return overflowNanos;
  }

  /** Retry timers that ran. */
  public long delayedRetries() {
    return delayedRetries;
  }

  /** Injected -ENOMEM answers. */
  public long enomem() {
    return enomem;
  }

  /** virtqueue_add_sgs calls. */
  public long ringAttempts() {
    return ringAttempts;
  }

  @Override
  public String toString() {
    return "RingQueue[ring="
        + ring.held()
        + "/"
        + ring.limit()
        + "/"
        + ring.size()
        + ", queued="
        + overflow.size()
        + ", full-ring="
        + fullRing.spec()
        + ", enqueue-error="
        + enqueueError.spec()
        + "]";
  }

  /**
   * Validating builder; defaults are the merged virtio-fs: refill-on-completion, fail, no ENOMEM.
   */
  public static final class Builder<T> {
    private final Port<T> port;
    private final Ring<T> ring;
    private FullRingStrategy fullRing = FullRingStrategy.refillOnCompletion();
    private EnqueueErrorPolicy enqueueError = EnqueueErrorPolicy.FAIL;
    private double enomemProbability;
    private RandomSource faults;
    private boolean misfitToTail = true;

    private Builder(Port<T> port, Ring<T> ring) {
      this.port = Objects.requireNonNull(port, "port");
      this.ring = Objects.requireNonNull(ring, "ring");
    }

    /**
     * A fuse-io-uring queue: the request at the head of the waiting list stays there until a slot
     * frees.
     */
    public Builder<T> misfitStaysAtHead() {
      misfitToTail = false;
      return this;
    }

    public Builder<T> fullRing(FullRingStrategy s) {
      fullRing = Objects.requireNonNull(s, "fullRing");
      return this;
    }

    public Builder<T> enqueueError(EnqueueErrorPolicy p) {
      enqueueError = Objects.requireNonNull(p, "enqueueError");
      return this;
    }

    /**
     * The chance that adding to the ring fails with {@code -ENOMEM}, drawn from {@code faults} on
     * every add (no draw at all while it is 0, so a queue without faults leaves the stream alone).
     */
    public Builder<T> enomem(double probability, RandomSource faults) {
      if (!(probability >= 0 && probability <= 1)) {
        throw new IllegalArgumentException(
            "enomem-probability must be in [0, 1], was " + probability);
      }
      this.enomemProbability = probability;
      this.faults = faults;
      return this;
    }

    public RingQueue<T> build() {
      if (faults == null && enomemProbability > 0) {
        throw new IllegalStateException("an ENOMEM probability needs a random source");
      }
      if (ring.held() != 0) {
        throw new IllegalStateException("the ring already holds " + ring.held() + " slots");
      }
      return new RingQueue<>(this);
    }
  }

  /** A growable circular buffer of longs: the overflow list's since-timestamps without boxing. */
  private static final class LongDeque {
    private long[] buf = new long[16];
    private int head;
    private int size;

    void addLast(long v) {
      growIfFull();
      buf[(head + size) & (buf.length - 1)] = v;
      size++;
    }

    void addFirst(long v) {
      growIfFull();
      head = (head - 1) & (buf.length - 1);
      buf[head] = v;
      size++;
    }

    private void growIfFull() {
      if (size == buf.length) {
        long[] grown = new long[buf.length * 2];
        for (int i = 0; i < size; i++) {
          grown[i] = buf[(head + i) & (buf.length - 1)];
        }
        buf = grown;
        head = 0;
      }
    }

    long pollFirst() {
      if (size == 0) {
        throw new IllegalStateException("empty");
      }
      long v = buf[head];
      head = (head + 1) & (buf.length - 1);
      size--;
      return v;
    }
  }
}
