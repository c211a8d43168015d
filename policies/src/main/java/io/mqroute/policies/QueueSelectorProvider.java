package io.mqroute.policies;

import java.util.Map;

/**
 * Plugs a user-written {@link QueueSelector} into {@code Selectors.create} by name, found with
 * {@link java.util.ServiceLoader} (list the class in {@code
 * META-INF/services/io.mqroute.policies.QueueSelectorProvider}).
 */
public interface QueueSelectorProvider {

  /** The name experiments use, e.g. {@code "my-hash"}; must not clash with a built-in name. */
  String name();

  /**
   * A new selector configured by {@code params}; throw {@link IllegalArgumentException} on bad
   * ones.
   */
  QueueSelector create(Map<String, String> params);
}
