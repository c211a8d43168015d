package io.mqroute.policies.strategy;

import io.mqroute.policies.Params;
import java.util.Objects;

/**
 * Background-request accounting of {@code fuse_conn}: {@code num_background} (queued or active),
 * {@code active_background} (sent), {@code blocked} and the congestion threshold. {@link
 * Mode#GLOBAL} models {@code flush_bg_queue} (admit while {@code active < max_background}); {@link
 * Mode#PER_QUEUE} models {@code fuse_uring_flush_bg}, which also admits whenever the queue has no
 * active background request ("Allow one bg request per queue, ignoring global fc limits").
 *
 * <p>Life of a background request: {@link #enqueue(int)} when queued, {@link #tryAdmit(int)} each
 * time the queue may send its oldest waiting one, {@link #release(int)} when an admitted one ends.
 * Not thread-safe; O(1) per call, no allocation.
 */
public final class BackgroundAdmission {

  /** {@code FUSE_DEFAULT_MAX_BACKGROUND}. */
  public static final int DEFAULT_MAX_BACKGROUND = 12;

  /** Which kernel admission rule applies. */
  public enum Mode {
    /** {@code /dev/fuse} and virtio-fs: one global limit. */
    GLOBAL,
    /** fuse-over-io-uring: global limit, but each queue may always run one. */
    PER_QUEUE
  }

  private final Mode mode;
  private final int maxBackground;
  private final int congestionThreshold;
  private final int[] activePerQueue;
  private int numBackground;
  private int active;

  private BackgroundAdmission(Builder b) {
    mode = b.mode;
    maxBackground = b.maxBackground;
    congestionThreshold =
        b.congestionThreshold >= 0 ? b.congestionThreshold : b.maxBackground * 3 / 4;
    activePerQueue = new int[b.queues];
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  /** A background request was queued on {@code queue} ({@code num_background++}). */
  public void enqueue(int queue) {
    checkQueue(queue);
    numBackground++;
  }

  /**
   * Whether the oldest waiting background request of {@code queue} may be sent now; if so it is
   * counted as active. The caller must have {@link #enqueue enqueued} it.
   */
  public boolean tryAdmit(int queue) {
    checkQueue(queue);
    if (waiting() == 0) {
      throw new IllegalStateException("tryAdmit(" + queue + ") with no waiting background request");
    }
    boolean ok = active < maxBackground || (mode == Mode.PER_QUEUE && activePerQueue[queue] == 0);
    if (ok) {
      active++;
      activePerQueue[queue]++;
    }
    return ok;
  }

  /** An admitted background request of {@code queue} ended ({@code fuse_request_end}). */
  public void release(int queue) {
    checkQueue(queue);
    if (activePerQueue[queue] == 0) {
      throw new IllegalStateException("release(" + queue + ") with no active background request");
    }
    activePerQueue[queue]--;
    active--;
    numBackground--;
  }

  /**
   * A waiting (not yet admitted) background request of {@code queue} leaves without running: its
   * queue went away and the caller routes it again ({@code num_background--}).
   */
  public void withdraw(int queue) {
    checkQueue(queue);
    if (waiting() == 0) {
      throw new IllegalStateException("withdraw(" + queue + ") with no waiting background request");
    }
    numBackground--;
  }

  /** {@code fc->blocked}: new background requests must wait before being created. */
  public boolean blocked() {
    return numBackground >= maxBackground;
  }

  /** {@code num_background >= congestion_threshold}: readahead and async writeback back off. */
  public boolean congested() {
    return numBackground >= congestionThreshold;
  }

  public int numBackground() {
    return numBackground;
  }

  public int activeBackground() {
    return active;
  }

  public int activeBackground(int queue) {
    return activePerQueue[queue];
  }

  public int waiting() {
    return numBackground - active;
  }

  public int maxBackground() {
    return maxBackground;
  }

  public int congestionThreshold() {
    return congestionThreshold;
  }

  public Mode mode() {
    return mode;
  }

  /**
   * The admission invariant: at most {@code max_background} active, plus in per-queue mode at most
   * one extra per queue that holds exactly the active request the one-per-queue rule allowed.
   */
  public boolean withinLimit() {
    if (active <= maxBackground) {
      return true;
    }
    if (mode == Mode.GLOBAL) {
      return false;
    }
    int busyQueues = 0;
    for (int a : activePerQueue) {
      busyQueues += a > 0 ? 1 : 0;
    }
    return active <= maxBackground + busyQueues;
  }

  private void checkQueue(int queue) {
    if (queue < 0 || queue >= activePerQueue.length) {
      throw new IllegalArgumentException(
          "queue must be in [0, " + (activePerQueue.length - 1) + "], got " + queue);
    }
  }

  @Override
  public String toString() {
    return "BackgroundAdmission[mode="
        + mode
        + ", max="
        + maxBackground
        + ", congestion="
        + congestionThreshold
        + ", num="
        + numBackground
        + ", active="
        + active
        + "]";
  }

  /** Defaults: global mode, max 12, threshold {@code max * 3 / 4} (9), one queue. */
  public static final class Builder {
    private Mode mode = Mode.GLOBAL;
    private int maxBackground = DEFAULT_MAX_BACKGROUND;
    private int congestionThreshold = -1;
    private int queues = 1;

    private Builder() {}

    public Builder mode(Mode m) {
      mode = Objects.requireNonNull(m, "mode");
      return this;
    }

    /** {@code max_background} from the FUSE_INIT reply (virtiofsd says 65535). */
    public Builder maxBackground(int n) {
      maxBackground = Params.checkRange("max-background", n, 1, 65535);
      return this;
    }

    /** {@code congestion_threshold}; defaults to {@code max_background * 3 / 4}. */
    public Builder congestionThreshold(int n) {
      congestionThreshold = Params.checkRange("congestion-threshold", n, 0, 65535);
      return this;
    }

    /** Number of queues (index range of {@code queue} arguments). */
    public Builder queues(int n) {
      queues = Params.checkRange("queues", n, 1, 1 << 16);
      return this;
    }

    public BackgroundAdmission build() {
      return new BackgroundAdmission(this);
    }
  }
}
