package io.mqroute.actors.machine;

import io.mqroute.protocol.Completion;

/**
 * The bytes behind a job's requests, when a real device stores them (mqroute load's {@code
 * verify=}): what each write carries and what each read must bring back (fio's verify headers and
 * io_piece log). The model moves no data: its jobs have none ({@code null}).
 *
 * <p>Called by the job's actor only, in its order: {@link #issued} for every request, then {@link
 * #ended} once for it.
 */
public interface JobData {
  /**
   * A request is issued: a write returns the bytes it carries (exactly {@code bytes} of them), a
   * read returns null.
   */
  byte[] issued(long id, boolean read, long offset, int bytes);

  /** The request has ended with {@code c} (a read's bytes in {@link Completion#data()}). */
  void ended(long id, Completion c);

  /** The verify phase has another block to read back (fio's do_verify over its io_piece log). */
  boolean hasMoreVerify();

  /** The offset of the next block to read back; only when {@link #hasMoreVerify()}. */
  long nextVerifyOffset();

  /** {@code verify_fatal}: a mismatch was found and the job must stop. */
  boolean fatal();
}
