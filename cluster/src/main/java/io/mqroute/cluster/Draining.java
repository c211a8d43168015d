package io.mqroute.cluster;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Requests a host router sent to queues of a node that is leaving gracefully: their queues have
 * left the listing, but the node is still up and reachable and finishes them (see {@link
 * DeviceQueue}'s drain). They wait here, by router id, until their completion arrives or their node
 * is gone.
 *
 * <p>Not thread-safe: owned by one router actor.
 *
 * @param <N> what identifies a node (its incarnation, so that a restarted node does not inherit a
 *     drain)
 * @param <F> what the router keeps per request
 */
final class Draining<N, F> {
  private final Map<Long, F> byId = new HashMap<>();
  private final Map<N, Set<Long>> byNode = new HashMap<>();
  private final Map<Long, N> nodeOf = new HashMap<>();

  void add(N node, long id, F request) {
    byId.put(id, request);
    nodeOf.put(id, node);
    byNode.computeIfAbsent(node, k -> new HashSet<>()).add(id);
  }

  /** The request with this id, no longer draining; null if it is not here. */
  F remove(long id) {
    F f = byId.remove(id);
    if (f != null) {
      N node = nodeOf.remove(id);
      Set<Long> ids = byNode.get(node);
      ids.remove(id);
      if (ids.isEmpty()) {
        byNode.remove(node);
      }
    }
    return f;
  }

  /** The request with this id, left here; null if it is not here. */
  F get(long id) {
    return byId.get(id);
  }

  /** Everything still draining on {@code node}, removed from here. */
  List<F> removeNode(N node) {
    Set<Long> ids = byNode.remove(node);
    List<F> out = new ArrayList<>();
    if (ids != null) {
      for (long id : ids) {
        nodeOf.remove(id);
        out.add(byId.remove(id));
      }
    }
    return out;
  }
}
