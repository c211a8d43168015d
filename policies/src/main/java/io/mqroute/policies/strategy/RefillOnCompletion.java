package io.mqroute.policies.strategy;

/**
 * Merged seed 001 virtio-fs: {@code virtio_fs_requests_done_work} schedules {@code dispatch_work}
 * when {@code queued_reqs} is non-empty, and the dispatch worker re-appends a head that still does
 * not fit at the tail. No timer; safe only because a request is queued only when the ring was full,
 * so some completion will come.
 */
public final class RefillOnCompletion implements FullRingStrategy {

  static final RefillOnCompletion INSTANCE = new RefillOnCompletion();

  private RefillOnCompletion() {}

  @Override
  public boolean refillsOnCompletion() {
    return true;
  }

  @Override
  public long retryDelayNanos() {
    return NO_TIMER;
  }

  @Override
  public String spec() {
    return "refill-on-completion";
  }

  @Override
  public String toString() {
    return spec();
  }
}
