package io.mqroute.cluster;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Which queue holds which routing slot on a host: a fixed number of slots (the routing view's queue
 * indices), filled from successive Receptionist listings.
 *
 * <p>Determinism: a listing is a hash set of ActorRefs, whose iteration order follows the actors'
 * random uids. New queues are therefore assigned in the order of a stable text key (the actor
 * path), each to the lowest free slot, so the same sequence of listings always gives the same
 * slots. A queue keeps its slot while it stays in the listing; a departed queue frees its slot for
 * later arrivals. Queues beyond the capacity wait, unassigned, until a slot frees (they are retried
 * on every update).
 *
 * <p>Not thread-safe: owned by one router actor.
 *
 * @param <K> the queue handle ({@code ActorRef<Request>} in the router, strings in tests)
 */
public final class QueueSlots<K> {
  /**
   * What one listing changed: slots that got a queue and slots that lost theirs, each ascending.
   */
  public record Change(List<Integer> added, List<Integer> removed) {
    public boolean isEmpty() {
      return added.isEmpty() && removed.isEmpty();
    }
  }

  private final List<K> bySlot;
  private final Map<K, Integer> slotOf = new HashMap<>();
  private final Function<K, String> sortKey;
  private int waiting;

  /**
   * @param capacity how many slots, >= 1
   * @param sortKey a stable key that orders new queues (never a hash)
   */
  public QueueSlots(int capacity, Function<K, String> sortKey) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1, was " + capacity);
    }
    this.bySlot = new ArrayList<>(capacity);
    for (int i = 0; i < capacity; i++) {
      bySlot.add(null);
    }
    this.sortKey = Objects.requireNonNull(sortKey, "sortKey");
  }

  /**
   * Takes the current listing: frees the slots of queues no longer in it, then assigns slots to new
   * ones.
   */
  public Change update(Collection<K> listing) {
    List<Integer> removed = new ArrayList<>();
    for (int slot = 0; slot < bySlot.size(); slot++) {
      K k = bySlot.get(slot);
      if (k != null && !listing.contains(k)) {
        bySlot.set(slot, null);
        slotOf.remove(k);
        removed.add(slot);
      }
    }
    List<K> fresh = new ArrayList<>();
    for (K k : listing) {
      if (!slotOf.containsKey(k)) {
        fresh.add(k);
      }
    }
    fresh.sort(Comparator.comparing(sortKey));
    List<Integer> added = new ArrayList<>();
    int next = 0;
    int assigned = 0;
    for (K k : fresh) {
      while (next < bySlot.size() && bySlot.get(next) != null) {
        next++;
      }
      if (next == bySlot.size()) {
        break;
      }
      bySlot.set(next, k);
      slotOf.put(k, next);
      added.add(next);
      assigned++;
    }
    waiting = fresh.size() - assigned;
    added.sort(null);
    return new Change(List.copyOf(added), List.copyOf(removed));
  }

  /** The queue in {@code slot}, or null when the slot is free. */
  public K queue(int slot) {
    return bySlot.get(slot);
  }

  /** The slot of {@code queue}, or -1 when it has none. */
  public int slotOf(K queue) {
    Integer s = slotOf.get(queue);
    return s == null ? -1 : s;
  }

  /** Slots in use. */
  public int size() {
    return slotOf.size();
  }

  public int capacity() {
    return bySlot.size();
  }

  /** Queues of the last listing that found no free slot. */
  public int waiting() {
    return waiting;
  }
}
