package io.mqroute.protocol;

/**
 * How a request ended, with the kernel's errno names and Linux x86-64 errno values. The router, the
 * queues and the devices use exactly the codes the kernel uses on the same path (see each
 * constant).
 */
public enum Status {
  OK(0),
  /** Interrupted wait (request_wait_answer on a fatal signal). */
  EINTR(4),
  /** Device I/O error (fault injection, a file backend's IOException). */
  EIO(5),
  /** Try again later. */
  EAGAIN(11),
  /** virtqueue_add_sgs could not allocate: merged virtio-fs returns it to the caller (seed 001). */
  ENOMEM(12),
  /** Foreground request with no queue for its CPU (fuse_uring_queue_fuse_req with a NULL queue). */
  EINVAL(22),
  /**
   * Ring full; normally never leaves the queue, which parks the request on its overflow list
   * instead.
   */
  ENOSPC(28),
  /**
   * Queue torn down with requests on it (fuse_uring_abort → fuse_dev_end_requests, fuse_abort_conn:
   * the requests the server had taken end with -ECONNABORTED). Fate unknown: in a cluster, a
   * request that had been sent to a device queue which then went away or fell silent; the device
   * may have done it (a write may have landed).
   */
  ECONNABORTED(103),
  /**
   * Not done: a background request with no queue (fc->connected == 0 at submit), or, in a cluster,
   * a request that never reached a device, or one a device refused without starting it (its fence,
   * see {@link RequestBatch}). Never a request that a device may have executed.
   */
  ENOTCONN(107);

  private final int errno;

  Status(int errno) {
    this.errno = errno;
  }

  /** The positive errno value; 0 for {@link #OK}. */
  public int errno() {
    return errno;
  }

  public boolean isOk() {
    return this == OK;
  }
}
