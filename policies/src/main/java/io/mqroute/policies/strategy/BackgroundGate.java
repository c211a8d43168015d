package io.mqroute.policies.strategy;

import io.mqroute.policies.QueueSelector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The way background requests reach a queue: {@link BackgroundAdmission}'s counters plus the lists
 * the kernel keeps around them — the submitters blocked on {@code max_background} ({@code
 * fc->blocked}, {@code blocked_waitq}) and the requests waiting for admission ({@code fc->bg_queue}
 * in global mode; each queue's {@code fuse_uring_queue_bq_req} list in per-queue mode). The
 * virtual-time router and the cluster's host router both send background requests through it;
 * foreground requests never come here.
 *
 * <p>Order of decisions (as the kernel takes them): global mode queues the request first and picks
 * its queue when it is admitted ({@code flush_bg_queue}: the transport picks the queue when the
 * request is finally sent); per-queue mode picks the queue first, counts it there ({@link
 * Port#reserve}) and admits per queue, always letting one run on a queue with none active ({@code
 * fuse_uring_flush_bg}).
 *
 * <p>Not thread-safe: one owner (an actor) calls it, and it calls the owner's {@link Port}
 * synchronously. O(1) per call besides the admitted requests it hands out.
 *
 * @param <T> what the owner routes
 */
public final class BackgroundGate<T> {

  /** What the owner does for the gate. */
  public interface Port<T> {
    /**
     * Picks a queue for {@code item}, or answers it itself with the kernel's "no queue" error
     * (ENOTCONN for a background request) and returns {@link QueueSelector#NONE}.
     */
    int select(T item);

    /** Counts {@code item}'s queue's load ({@code nr_reqs++}): the request is now that queue's. */
    void reserve(int queue);

    /** {@code item} is admitted on {@code queue}: send it. */
    void dispatch(int queue, T item);
  }

  private final BackgroundAdmission admission;
  private final Port<T> port;

  /** Waiting for admission: one list in global mode, one per queue in per-queue mode. */
  private final ArrayDeque<T>[] waiting;

  /** Submitters blocked because num_background reached max_background. */
  private final ArrayDeque<T> blocked = new ArrayDeque<>();

  private long blockedCount;
  private int maxNum;
  private int maxActive;
  private long breaches;

  /**
   * @param admission the counters and limits; its {@code queues} must cover every queue index the
   *     port selects
   * @param queues queue indices the port may select (per-queue mode keeps a waiting list per queue)
   */
  @SuppressWarnings("unchecked")
  public BackgroundGate(BackgroundAdmission admission, int queues, Port<T> port) {
    this.admission = Objects.requireNonNull(admission, "admission");
    this.port = Objects.requireNonNull(port, "port");
    int lists = admission.mode() == BackgroundAdmission.Mode.GLOBAL ? 1 : queues;
    if (lists < 1) {
      throw new IllegalArgumentException("queues must be >= 1, was " + queues);
    }
    this.waiting = new ArrayDeque[lists];
    for (int i = 0; i < lists; i++) {
      waiting[i] = new ArrayDeque<>();
    }
  }

  /** fuse_request_queue_background / fuse_uring_queue_bq_req: a new background request. */
  public void submit(T item) {
    if (admission.blocked()) {
      blockedCount++;
      blocked.addLast(item); // fuse_get_req sleeps on blocked_waitq
      return;
    }
    int list = 0; // global mode: the one list (bg_queue)
    if (admission.mode() == BackgroundAdmission.Mode.PER_QUEUE) {
      list = port.select(item); // the queue first, then its own admission
      if (list == QueueSelector.NONE) {
        return;
      }
      port.reserve(list);
    }
    admission.enqueue(list); // num_background++, the waiting list, flush
    waiting[list].addLast(item);
    noteAdmission();
    flush(list);
  }

  /**
   * fuse_request_end of an admitted background request that ran on {@code queue} (or that found no
   * queue when it was routed again): its admission is released, the next waiting ones are admitted
   * and blocked submitters may go on.
   */
  public void ended(int queue) {
    int list = listOf(queue);
    admission.release(list);
    flush(list);
    while (!blocked.isEmpty() && !admission.blocked()) {
      submit(blocked.pollFirst());
    }
  }

  /**
   * An admitted request leaves queue {@code from} for queue {@code to} (re-routed from an overflow
   * list, already counted on {@code to}): per queue it takes {@code to}'s admission, first in line
   * since it was sent once already; in global mode nothing changes.
   */
  public void moved(T item, int from, int to) {
    if (admission.mode() == BackgroundAdmission.Mode.GLOBAL || from == to) {
      port.dispatch(to, item);
      return;
    }
    admission.release(from);
    admission.enqueue(to);
    if (admission.tryAdmit(to)) {
      noteAdmission();
      port.dispatch(to, item);
    } else {
      waiting[to].addFirst(item); // it was sent once already: it goes first
    }
    flush(from);
  }

  /**
   * Per-queue mode: {@code queue} went away; the requests still waiting for its admission leave the
   * counts and are returned (head first) for the owner to route again. Nothing in global mode.
   */
  public List<T> withdraw(int queue) {
    List<T> out = new ArrayList<>();
    if (admission.mode() == BackgroundAdmission.Mode.GLOBAL) {
      return out;
    }
    for (T item; (item = waiting[queue].pollFirst()) != null; ) {
      admission.withdraw(queue);
      out.add(item);
    }
    return out;
  }

  /** flush_bg_queue (global list) or fuse_uring_flush_bg (one queue's list). */
  private void flush(int list) {
    ArrayDeque<T> w = waiting[list];
    while (!w.isEmpty() && admission.tryAdmit(list)) {
      noteAdmission();
      T item = w.pollFirst();
      if (admission.mode() == BackgroundAdmission.Mode.GLOBAL) {
        int q = port.select(item); // the transport picks the queue when the request is finally sent
        if (q == QueueSelector.NONE) {
          admission.release(0);
          continue;
        }
        port.reserve(q);
        port.dispatch(q, item);
      } else {
        port.dispatch(list, item);
      }
    }
  }

  private int listOf(int queue) {
    return admission.mode() == BackgroundAdmission.Mode.GLOBAL ? 0 : queue;
  }

  private void noteAdmission() {
    maxNum = Math.max(maxNum, admission.numBackground());
    maxActive = Math.max(maxActive, admission.activeBackground());
    if (!admission.withinLimit()) {
      breaches++;
    }
  }

  /** The blocked requests, then each waiting list in queue order. */
  public void forEachHeld(Consumer<T> action) {
    blocked.forEach(action);
    for (ArrayDeque<T> w : waiting) {
      w.forEach(action);
    }
  }

  public BackgroundAdmission admission() {
    return admission;
  }

  /** Submitters blocked at max_background (cumulative). */
  public long blockedCount() {
    return blockedCount;
  }

  /** Submitters blocked now. */
  public int blockedNow() {
    return blocked.size();
  }

  /** Highest num_background seen. */
  public int maxNum() {
    return maxNum;
  }

  /** Highest active_background seen. */
  public int maxActive() {
    return maxActive;
  }

  /**
   * Admissions beyond max_background and the one-per-queue rule (must stay 0; architecture.md §4,
   * item 5).
   */
  public long breaches() {
    return breaches;
  }
}
