package io.mqroute.nbd;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An export held in memory (at most 1 GiB: one array per 1 MiB page, allocated on first write), for
 * tests and for measuring the NBD server without a router. Replies complete at once on the caller's
 * thread. Every connection shares the pages, so a flush (a no-op: nothing is volatile beyond
 * memory) is visible to all of them, as NBD_FLAG_CAN_MULTI_CONN promises.
 */
public final class MemoryBackend implements NbdBackend {
  /** The most this backend holds. */
  public static final long MAX_SIZE = 1L << 30;

  private static final int PAGE_SHIFT = 20;
  private static final int PAGE = 1 << PAGE_SHIFT;

  private final long size;
  private final byte[][] pages;
  private final AtomicLong requests = new AtomicLong();

  public MemoryBackend(long size) {
    if (size <= 0 || size > MAX_SIZE) {
      throw new IllegalArgumentException(
          "an in-memory export holds 1 byte to " + MAX_SIZE + " bytes, was " + size);
    }
    this.size = size;
    this.pages = new byte[(int) ((size + PAGE - 1) >>> PAGE_SHIFT)][];
  }

  @Override
  public long size() {
    return size;
  }

  /** Requests served so far (every op). */
  public long requests() {
    return requests.get();
  }

  @Override
  public Session open(int connection) {
    return (op, offset, length, data) ->
        CompletableFuture.completedFuture(serve(op, offset, length, data));
  }

  private NbdBackend.Reply serve(Op op, long offset, int length, byte[] data) {
    requests.incrementAndGet();
    if (offset < 0 || length < 0 || offset > size - length) {
      return Reply.error(op == Op.WRITE ? NbdWire.ENOSPC : NbdWire.EINVAL);
    }
    return switch (op) {
      case READ -> {
        byte[] out = new byte[length];
        copy(offset, out, length, false);
        yield new Reply(0, out);
      }
      case WRITE -> {
        copy(offset, data, length, true);
        yield Reply.OK;
      }
      case TRIM -> {
        // the spec lets a trimmed range read back as anything; zeros keep tests exact
        copy(offset, null, length, true);
        yield Reply.OK;
      }
      case FLUSH -> Reply.OK;
    };
  }

  /** Copies between the pages and {@code buf} (null: zeros, when writing). */
  private synchronized void copy(long offset, byte[] buf, int length, boolean write) {
    int done = 0;
    while (done < length) {
      long at = offset + done;
      int page = (int) (at >>> PAGE_SHIFT);
      int in = (int) (at & (PAGE - 1));
      int n = Math.min(length - done, PAGE - in);
      byte[] p = pages[page];
      if (write) {
        if (p == null && buf != null) {
          p = pages[page] = new byte[PAGE];
        }
        if (p != null) {
          if (buf == null) {
            java.util.Arrays.fill(p, in, in + n, (byte) 0);
          } else {
            System.arraycopy(buf, done, p, in, n);
          }
        }
      } else if (p != null) {
        System.arraycopy(p, in, buf, done, n);
      }
      done += n;
    }
  }
}
