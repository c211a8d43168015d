package io.mqroute.actors.machine;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * fio's {@code verify_backlog}: the writes a job has issued wait in its history ({@code
 * io_hist_list}, logged before issue by iolog.c {@code log_io_piece}); whenever the history holds a
 * multiple of {@code backlog} writes and the last completion was not a read, the next {@code batch}
 * I/Os read back the oldest completed writes (io_u.c {@code check_get_verify}, verify.c {@code
 * get_next_verify}); what is left is read back once the writes are done. fio sorts the history by
 * offset when writes may overlap; here it stays in issue order, which changes which block is read
 * back first, not how many. Not thread-safe.
 */
final class VerifyBacklog {
  private final int backlog;
  private final int batch;

  /** Logged writes: {offset, length, completed (0 or 1)}. */
  private final ArrayDeque<long[]> history = new ArrayDeque<>();

  private int verifyBatch;

  /** fio's td->last_ddir_completed starts at 0, DDIR_READ. */
  private boolean lastCompletedRead = true;

  /**
   * @param backlog verify_backlog (> 0)
   * @param batch verify_backlog_batch, 0 for backlog
   */
  VerifyBacklog(int backlog, int batch) {
    if (backlog <= 0 || batch < 0) {
      throw new IllegalArgumentException("verify_backlog must be > 0, its batch >= 0");
    }
    this.backlog = backlog;
    this.batch = batch;
  }

  /** A write is about to be issued; the returned entry is marked when it completes. */
  long[] logWrite(long offset, int length) {
    long[] e = {offset, length, 0};
    history.add(e);
    return e;
  }

  void completed(long[] write) {
    write[2] = 1;
  }

  void lastCompleted(boolean read) {
    lastCompletedRead = read;
  }

  /** check_get_verify: the write to read back now, or null for a regular I/O. */
  long[] next() {
    if (history.isEmpty()) {
      return null;
    }
    boolean get = verifyBatch > 0;
    if (!get && history.size() % backlog == 0 && !lastCompletedRead) {
      verifyBatch = batch > 0 ? batch : backlog;
      get = true;
    }
    if (!get) {
      return null;
    }
    long[] e = oldestCompleted();
    if (e != null) {
      verifyBatch--;
    }
    return e;
  }

  /** After the writes: the next write left to read back, null when none is. */
  long[] drain() {
    return oldestCompleted();
  }

  boolean isEmpty() {
    return history.isEmpty();
  }

  /** get_next_verify: the first logged write that has completed (one in flight is passed over). */
  private long[] oldestCompleted() {
    for (Iterator<long[]> it = history.iterator(); it.hasNext(); ) {
      long[] e = it.next();
      if (e[2] == 1) {
        it.remove();
        return e;
      }
    }
    return null;
  }
}
