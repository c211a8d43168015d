package io.mqroute.policies.strategy;

import io.mqroute.policies.Params;

/**
 * The order in which a device server starts the requests it popped from a queue in one batch (one
 * kick / one poll), and how many it runs at once.
 *
 * <ul>
 *   <li>{@code fifo} — Rust virtiofsd serial mode and the fixed QEMU C virtiofsd: ring order, one
 *       at a time.
 *   <li>{@code lifo-per-batch} — the seed 004 bug in the QEMU C virtiofsd {@code fv_queue_thread}:
 *       {@code g_list_prepend} reverses each batch, which turns sequential I/O into backward seeks
 *       on a disk (≈4× slower).
 *   <li>{@code pool(n)} — virtiofsd {@code --thread-pool-size=n}: started in ring order on {@code
 *       n} workers, completing in any order.
 * </ul>
 *
 * Cost: {@link #order} is O(batch) in place, no allocation.
 */
public final class DispatchOrder {

  /** Upper bound on pool workers (the C virtiofsd default is 64 per queue). */
  public static final int MAX_WORKERS = 1 << 16;

  private static final DispatchOrder FIFO = new DispatchOrder(false, 1, false);
  private static final DispatchOrder LIFO = new DispatchOrder(true, 1, false);

  private final boolean reverse;
  private final int workers;
  private final boolean pool;

  private DispatchOrder(boolean reverse, int workers, boolean pool) {
    this.reverse = reverse;
    this.workers = workers;
    this.pool = pool;
  }

  public static DispatchOrder fifo() {
    return FIFO;
  }

  public static DispatchOrder lifoPerBatch() {
    return LIFO;
  }

  public static DispatchOrder pool(int workers) {
    return new DispatchOrder(
        false, Params.checkRange("pool workers", workers, 1, MAX_WORKERS), true);
  }

  /** Rearranges {@code batch[from, from + length)} (ring order on entry) into start order. */
  public void order(long[] batch, int from, int length) {
    if (reverse) {
      for (int i = from, j = from + length - 1; i < j; i++, j--) {
        long t = batch[i];
        batch[i] = batch[j];
        batch[j] = t;
      }
    }
  }

  /** As {@link #order(long[], int, int)} for {@code int} request ids. */
  public void order(int[] batch, int from, int length) {
    if (reverse) {
      for (int i = from, j = from + length - 1; i < j; i++, j--) {
        int t = batch[i];
        batch[i] = batch[j];
        batch[j] = t;
      }
    }
  }

  /**
   * The worker that starts the {@code position}-th item (in start order) of a batch when all
   * workers are idle: always 0 for a serial server, {@code position % workers} for a pool (tasks go
   * to idle threads in submission order).
   */
  public int workerFor(int position) {
    return position % workers;
  }

  /** How many requests of this queue the server handles at once. */
  public int concurrency() {
    return workers;
  }

  /** Whether completions come back in start order (serial servers only). */
  public boolean completesInOrder() {
    return !pool;
  }

  public String spec() {
    return pool ? "pool(" + workers + ")" : reverse ? "lifo-per-batch" : "fifo";
  }

  @Override
  public String toString() {
    return spec();
  }
}
