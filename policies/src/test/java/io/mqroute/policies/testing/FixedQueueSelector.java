package io.mqroute.policies.testing;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.QueueSelectorProvider;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import java.util.Map;

/**
 * A user selector as a user would write one: constructor form, plus a provider and a create() form.
 */
public final class FixedQueueSelector implements QueueSelector {

  private final int queue;

  public FixedQueueSelector(Map<String, String> params) {
    this.queue = Integer.parseInt(params.getOrDefault("queue", "0"));
  }

  @Override
  public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
    return view.registered(queue) ? queue : NONE;
  }

  public int queue() {
    return queue;
  }

  /** Found by {@code ServiceLoader} under the name {@code test-fixed}. */
  public static final class Provider implements QueueSelectorProvider {
    @Override
    public String name() {
      return "test-fixed";
    }

    @Override
    public QueueSelector create(Map<String, String> params) {
      return new FixedQueueSelector(params);
    }
  }

  /** The static-factory form: {@code create} wins over the constructor. */
  public static final class WithCreate implements QueueSelector {
    private WithCreate() {}

    public static QueueSelector create(Map<String, String> params) {
      if (params.containsKey("bad")) {
        throw new IllegalArgumentException("bad must not be set");
      }
      return new WithCreate();
    }

    @Override
    public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
      return view.registeredQueues().first();
    }
  }
}
