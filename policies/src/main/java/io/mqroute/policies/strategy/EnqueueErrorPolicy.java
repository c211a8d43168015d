package io.mqroute.policies.strategy;

/**
 * What a virtio-fs queue does when adding a request to the ring fails with {@code -ENOMEM} ({@code
 * -ENOSPC} always goes to the overflow list).
 */
public enum EnqueueErrorPolicy {

  /**
   * Merged form ("virtio-fs: let -ENOMEM bubble up or burst gently"): end the request with the
   * error, via {@code end_reqs} and the dispatch worker, never in the submitter's context.
   */
  FAIL("fail"),

  /**
   * Seed 001 V2: put it on {@code queued_reqs} like {@code -ENOSPC}. With refill-on-completion and
   * an empty ring nothing ever completes, so the request hangs forever (Vivek's deadlock).
   */
  REQUEUE("requeue");

  private final String spec;

  EnqueueErrorPolicy(String spec) {
    this.spec = spec;
  }

  /** Whether {@code -ENOMEM} is treated like {@code -ENOSPC}. */
  public boolean requeueOnNoMemory() {
    return this == REQUEUE;
  }

  public String spec() {
    return spec;
  }

  @Override
  public String toString() {
    return spec;
  }
}
