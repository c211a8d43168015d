package io.mqroute.protocol.wire;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * What was derived lately from a key (an actor path resolved, a ref formatted), cleared when it
 * holds {@code max} entries: bounded whatever keys a peer sends, and a node talks to a handful of
 * actors, so nearly every lookup hits. Safe for concurrent use; two threads may derive the same
 * value once each.
 */
public final class RecentCache<K, V> {
  private final Map<K, V> map = new ConcurrentHashMap<>();
  private final int max;

  public RecentCache(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be >= 1, was " + max);
    }
    this.max = max;
  }

  /**
   * The value for {@code key}, derived by {@code derive} when it is not held; what {@code derive}
   * throws is thrown and nothing is held.
   */
  public V get(K key, Function<? super K, ? extends V> derive) {
    V v = map.get(key);
    if (v == null) {
      v = derive.apply(key);
      if (map.size() >= max) {
        map.clear();
      }
      map.put(key, v);
    }
    return v;
  }

  int size() {
    return map.size();
  }
}
