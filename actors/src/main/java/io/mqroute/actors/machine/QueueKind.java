package io.mqroute.actors.machine;

import io.mqroute.policies.NameSuggester;
import java.util.Arrays;

/** How request queues relate to CPUs. */
public enum QueueKind {
  /** fuse-over-io-uring: one ring queue per CPU (qid = CPU); a reduced set may be registered. */
  PER_CPU("per-cpu"),
  /** virtio-fs: N request virtqueues, each with an IRQ / home CPU from group_cpus_evenly. */
  VIRTIO("virtio"),
  /** N queues with no CPU affinity of their own (home CPUs spread evenly for completion work). */
  INDEPENDENT("independent"),
  /**
   * FUSE over /dev/fuse: one queue (fiq->pending) served by a pool of {@code pollers} libfuse
   * worker threads that the scheduler places on the machine's cores ({@link DevFuseQueue}).
   */
  DEV_FUSE("dev-fuse");

  private final String spec;

  QueueKind(String spec) {
    this.spec = spec;
  }

  public String spec() {
    return spec;
  }

  public static QueueKind parse(String s) {
    for (QueueKind k : values()) {
      if (k.spec.equals(s)) {
        return k;
      }
    }
    throw new IllegalArgumentException(
        NameSuggester.unknown(
            "queue kind", s, Arrays.stream(values()).map(QueueKind::spec).toList()));
  }
}
