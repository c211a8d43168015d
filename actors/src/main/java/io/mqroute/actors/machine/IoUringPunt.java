package io.mqroute.actors.machine;

/**
 * How the kernel issues an io_uring read or write of a FUSE file ({@code
 * machine.kernel.io-uring-punt}).
 *
 * <ul>
 *   <li>{@link #INLINE} (the default, every result before issue 21's mechanism 5): the submitting
 *       thread issues it in io_uring_enter, so the FUSE request is queued from the application's
 *       CPU.
 *   <li>{@link #IO_WQ}: the file has no {@code FMODE_NOWAIT}, so {@code io_uring/rw.c} {@code
 *       io_read} / {@code io_write} return -EAGAIN to the non-blocking attempt and {@code
 *       io_queue_iowq} hands the request to an io-wq worker thread of the submitting process, which
 *       issues it ({@code io_wq_submit_work} → {@code io_issue_sqe}) from its own CPU. This is
 *       mainline FUSE up to at least 6.18 (fuse sets no {@code FMODE_NOWAIT}). With libfuse's
 *       default {@code FUSE_CAP_ASYNC_DIO} the worker's {@code fuse_direct_IO} sends the request
 *       with {@code fuse_simple_background} and returns -EIOCBQUEUED: it does not wait for the
 *       reply, and the completion ({@code fuse_aio_complete} → {@code io_complete_rw}) is posted to
 *       the submitter as task_work, as without io-wq.
 * </ul>
 */
public enum IoUringPunt {
  INLINE,
  IO_WQ;

  /** The key's value as written in a machine file. */
  public String key() {
    return this == INLINE ? "inline" : "io-wq";
  }

  static IoUringPunt parse(String s) {
    return switch (s) {
      case "inline" -> INLINE;
      case "io-wq" -> IO_WQ;
      default ->
          throw new IllegalArgumentException(
              "unknown io-uring-punt \"" + s + "\" (valid: inline, io-wq)");
    };
  }
}
