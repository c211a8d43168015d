package io.mqroute.policies.strategy;

import io.mqroute.policies.Params;
import java.util.Objects;

/**
 * Everything a queue actor needs to know about its ring: its size and the three strategies that
 * decide what happens when it is full, when adding fails with {@code -ENOMEM}, and in which order
 * the server starts what it pops. Defaults are the merged virtio-fs with QEMU's {@code
 * queue-size=128} and a serial FIFO server.
 */
public final class QueuePolicy {

  /** {@code VIRTQUEUE_MAX_SIZE}-style upper bound (virtiofsd's {@code QUEUE_SIZE}). */
  public static final int MAX_RING_SIZE = 32768;

  /** QEMU {@code vhost-user-fs-pci} default {@code queue-size}. */
  public static final int DEFAULT_RING_SIZE = 128;

  private final int ringSize;
  private final FullRingStrategy fullRing;
  private final EnqueueErrorPolicy enqueueError;
  private final DispatchOrder dispatchOrder;

  private QueuePolicy(Builder b) {
    ringSize = b.ringSize;
    fullRing = b.fullRing;
    enqueueError = b.enqueueError;
    dispatchOrder = b.dispatchOrder;
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  public int ringSize() {
    return ringSize;
  }

  public FullRingStrategy fullRing() {
    return fullRing;
  }

  public EnqueueErrorPolicy enqueueError() {
    return enqueueError;
  }

  public DispatchOrder dispatchOrder() {
    return dispatchOrder;
  }

  /**
   * Whether this combination can strand a request on an empty ring: {@code -ENOMEM} requeued with
   * no timer to retry it (the seed 001 V2 deadlock).
   */
  public boolean canDeadlockOnEmptyRing() {
    return enqueueError.requeueOnNoMemory()
        && fullRing.retryDelayNanos() == FullRingStrategy.NO_TIMER;
  }

  @Override
  public String toString() {
    return "QueuePolicy[ring-size="
        + ringSize
        + ", full-ring="
        + fullRing.spec()
        + ", enqueue-error="
        + enqueueError.spec()
        + ", dispatch="
        + dispatchOrder.spec()
        + "]";
  }

  /** Validating builder. */
  public static final class Builder {
    private int ringSize = DEFAULT_RING_SIZE;
    private FullRingStrategy fullRing = FullRingStrategy.refillOnCompletion();
    private EnqueueErrorPolicy enqueueError = EnqueueErrorPolicy.FAIL;
    private DispatchOrder dispatchOrder = DispatchOrder.fifo();

    private Builder() {}

    /** Slots on the ring (virtqueue size, or uring entries per queue). */
    public Builder ringSize(int n) {
      ringSize = Params.checkRange("ring-size", n, 1, MAX_RING_SIZE);
      return this;
    }

    public Builder fullRing(FullRingStrategy s) {
      fullRing = Objects.requireNonNull(s, "fullRing");
      return this;
    }

    public Builder enqueueError(EnqueueErrorPolicy p) {
      enqueueError = Objects.requireNonNull(p, "enqueueError");
      return this;
    }

    public Builder dispatchOrder(DispatchOrder d) {
      dispatchOrder = Objects.requireNonNull(d, "dispatchOrder");
      return this;
    }

    public QueuePolicy build() {
      return new QueuePolicy(this);
    }
  }
}
