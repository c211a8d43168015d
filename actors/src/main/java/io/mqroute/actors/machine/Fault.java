package io.mqroute.actors.machine;

/**
 * An injected fault on one queue or its device, switched on with a non-zero value and off with
 * zero.
 *
 * @param value EIO / ENOMEM: probability per request in [0, 1]; STALL: 1 = stalled; SLOWDOWN:
 *     service-time factor (1 or 0 = normal); RING_LIMIT: usable ring slots (0 = the whole ring);
 *     LOSE: requests to drop silently (a deliberately broken queue, to show the checker catches a
 *     lost request)
 */
public record Fault(Kind kind, double value) {
  /** What breaks. */
  public enum Kind {
    /** The device answers EIO. */
    EIO,
    /** virtqueue_add_sgs fails with -ENOMEM (merged form: error to the caller; V2: requeued). */
    ENOMEM,
    /** The poller / server thread stops taking requests (a stuck virtiofsd thread). */
    STALL,
    /** Every service time is multiplied (a device in garbage collection, a throttled link). */
    SLOWDOWN,
    /** Only some ring slots are usable (a ring-full storm: other traffic holds the rest). */
    RING_LIMIT,
    /** The queue forgets accepted requests: a broken queue, never a model of the kernel. */
    LOSE
  }

  public Fault {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException("fault value must be finite and >= 0, was " + value);
    }
    if ((kind == Kind.EIO || kind == Kind.ENOMEM) && value > 1) {
      throw new IllegalArgumentException(kind + " probability must be in [0, 1], was " + value);
    }
  }
}
