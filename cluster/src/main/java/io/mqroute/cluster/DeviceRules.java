package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.mqroute.policies.queue.RingQueue;
import io.mqroute.policies.strategy.DispatchOrder;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import io.mqroute.policies.strategy.Strategies;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What a {@link DeviceQueue}'s {@link RingQueue} decides with, under the names of an experiment's
 * {@code queues} block ({@code mqroute.cluster.device.full-ring}, ...).
 *
 * @param fullRing what moves a request parked on a full ring: a completion, or a retry timer
 * @param enqueueError what {@code -ENOMEM} at enqueue does: fail the request or park it
 * @param enomemProbability injected {@code -ENOMEM} rate per ring insertion, in [0, 1]
 * @param dispatch start order of what one message puts on the ring: fifo or lifo-per-batch
 * @param seed seed of the ENOMEM draws (each queue draws from its own stream)
 */
public record DeviceRules(
    FullRingStrategy fullRing,
    EnqueueErrorPolicy enqueueError,
    double enomemProbability,
    DispatchOrder dispatch,
    long seed) {
  /** The merged virtio-fs: refill-on-completion, fail, no ENOMEM, fifo. */
  public static final DeviceRules DEFAULT =
      new DeviceRules(
          FullRingStrategy.refillOnCompletion(),
          EnqueueErrorPolicy.FAIL,
          0,
          DispatchOrder.fifo(),
          1);

  public DeviceRules {
    Objects.requireNonNull(fullRing, "fullRing");
    Objects.requireNonNull(enqueueError, "enqueueError");
    checkProbability(enomemProbability);
    checkInOrder(dispatch);
    if (enqueueError.requeueOnNoMemory()
        && fullRing.refillsOnCompletion()
        && enomemProbability > 0) {
      throw new IllegalArgumentException(
          "enqueue-error = requeue with full-ring = refill-on-completion can strand"
              + " a request on an empty ring (the seed 001 V2 deadlock): use fail, or delayed-retry");
    }
  }

  /** This block with another full-ring strategy. */
  public DeviceRules withFullRing(FullRingStrategy s) {
    return new DeviceRules(s, enqueueError, enomemProbability, dispatch, seed);
  }

  /** This block with ENOMEM injected at {@code probability}, handled by {@code policy}. */
  public DeviceRules withEnomem(double probability, EnqueueErrorPolicy policy) {
    return new DeviceRules(fullRing, policy, probability, dispatch, seed);
  }

  /**
   * From the {@code mqroute.cluster.device} block ({@code full-ring}, {@code enqueue-error}, {@code
   * enomem-probability}, {@code dispatch}, {@code seed}), parsed as an experiment's {@code queues}
   * keys are: a bad value is one line naming the key, with the nearest valid name for a typo.
   */
  public static DeviceRules fromConfig(Config c) {
    FullRingStrategy fullRing =
        key("full-ring", () -> Strategies.fullRing(c.getString("full-ring")));
    EnqueueErrorPolicy error =
        key("enqueue-error", () -> Strategies.enqueueError(c.getString("enqueue-error")));
    double enomem =
        key("enomem-probability", () -> checkProbability(c.getDouble("enomem-probability")));
    DispatchOrder dispatch =
        key("dispatch", () -> checkInOrder(Strategies.dispatchOrder(c.getString("dispatch"))));
    long seed = key("seed", () -> c.getLong("seed"));
    return key("enqueue-error", () -> new DeviceRules(fullRing, error, enomem, dispatch, seed));
  }

  private static double checkProbability(double p) {
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("enomem-probability must be in [0, 1], was " + p);
    }
    return p;
  }

  private static DispatchOrder checkInOrder(DispatchOrder d) {
    if (!Objects.requireNonNull(d, "dispatch").completesInOrder()) {
      // a pool's concurrency is the Poller's worker count; here the ring and the blocking-I/O pool
      // decide it
      throw new IllegalArgumentException(
          "dispatch "
              + d.spec()
              + " is not available on a device node "
              + "(valid: fifo, lifo-per-batch)");
    }
    return d;
  }

  private static <T> T key(String key, Supplier<T> parse) {
    try {
      return parse.get();
    } catch (IllegalArgumentException | ConfigException e) {
      throw new NodeConfigException("mqroute.cluster.device." + key + ": " + e.getMessage());
    }
  }
}
