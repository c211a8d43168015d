package io.mqroute.actors.machine;

/**
 * What queueing theory asks of one queue, as time integrals and counts from its start until it
 * reported ({@code spanNanos}, ramp_time included, as the queue's other counters): the share of
 * requests that waited for a server, how busy its servers were, and how many requests waited or
 * were in the queue on average. A request is in the queue from its acceptance until its slot is
 * harvested (or it ends otherwise); it waits until a server starts it, on the overflow list or on
 * the ring. Pooled over replications with {@link #plus}: every ratio is then a ratio of the sums.
 *
 * @param servers the server threads (pollers, ring threads or libfuse workers) that drain the queue
 * @param spanNanos time covered
 * @param started requests a server started
 * @param waited of those, the ones that had waited (started later than accepted)
 * @param waitNanos Σ (start − acceptance) over the started requests
 * @param busyArea ∫ busy servers dt, in server·ns (a ring thread is busy until its commit)
 * @param waitingArea ∫ requests waiting for a server dt, in request·ns
 * @param inQueueArea ∫ requests in the queue dt, in request·ns
 */
public record Queueing(
    int servers,
    long spanNanos,
    long started,
    long waited,
    long waitNanos,
    long busyArea,
    long waitingArea,
    long inQueueArea) {

  /** Nothing measured. */
  public static final Queueing NONE = new Queueing(0, 0, 0, 0, 0, 0, 0, 0);

  /** P(wait): the share of started requests that had to wait; NaN when none started. */
  public double pWait() {
    return started == 0 ? Double.NaN : waited / (double) started;
  }

  /** Wq: the mean wait for a server, ns; NaN when none started. */
  public double meanWaitNanos() {
    return started == 0 ? Double.NaN : waitNanos / (double) started;
  }

  /** The mean busy fraction of a server (ρ per server); NaN without servers or time. */
  public double busyFraction() {
    return servers == 0 || spanNanos == 0 ? Double.NaN : busyArea / ((double) servers * spanNanos);
  }

  /** Lq: the time-average number of requests waiting for a server. */
  public double meanWaiting() {
    return spanNanos == 0 ? Double.NaN : waitingArea / (double) spanNanos;
  }

  /** L: the time-average number of requests in the queue (waiting, in service or not harvested). */
  public double meanInQueue() {
    return spanNanos == 0 ? Double.NaN : inQueueArea / (double) spanNanos;
  }

  /** The queue's server-side counts combined with the queue's own (its overflow list, in-queue). */
  Queueing withQueue(long overflowArea, long inQueue, long span) {
    return new Queueing(
        servers, span, started, waited, waitNanos, busyArea, waitingArea + overflowArea, inQueue);
  }

  /** Pooled with another run of the same queue (a replication): sums, the larger server count. */
  public Queueing plus(Queueing o) {
    return new Queueing(
        Math.max(servers, o.servers),
        spanNanos + o.spanNanos,
        started + o.started,
        waited + o.waited,
        waitNanos + o.waitNanos,
        busyArea + o.busyArea,
        waitingArea + o.waitingArea,
        inQueueArea + o.inQueueArea);
  }
}
