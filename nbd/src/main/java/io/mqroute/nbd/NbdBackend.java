package io.mqroute.nbd;

import java.util.concurrent.CompletionStage;

/**
 * What the NBD server calls: one export of {@link #size()} bytes. Each client connection opens a
 * {@link Session} of its own (the submitter the host router's selectors see). The server has
 * checked every request against the export's size and {@link io.mqroute.protocol.Request#MAX_DATA}
 * before it reaches a session.
 */
public interface NbdBackend extends AutoCloseable {

  /** What a request does. */
  enum Op {
    READ,
    WRITE,
    FLUSH,
    TRIM
  }

  /**
   * How a request ended: {@code error} is an NBD error value (0, {@link NbdWire#EIO}, ...), {@code
   * data} a successful read's bytes (exactly its length), null otherwise.
   */
  record Reply(int error, byte[] data) {
    public static final Reply OK = new Reply(0, null);

    public static Reply error(int error) {
      return new Reply(error, null);
    }
  }

  /** The export's size in bytes. */
  long size();

  /**
   * A session for the {@code connection}-th client connection since the server started (0, 1, ...).
   */
  Session open(int connection);

  @Override
  default void close() {}

  /** One connection's requests. */
  interface Session extends AutoCloseable {
    /**
     * Starts one request; the stage completes (on any thread) with its reply. {@code data} is a
     * write's bytes ({@code length} of them), null for the other ops.
     */
    CompletionStage<Reply> submit(Op op, long offset, int length, byte[] data);

    /**
     * {@link #submit(Op, long, int, byte[])} of a request read at {@code submitNanos} ({@code
     * System.nanoTime()}): a backend that passes requests on may take it as their submit time.
     */
    default CompletionStage<Reply> submit(
        Op op, long offset, int length, byte[] data, long submitNanos) {
      return submit(op, offset, length, data);
    }

    /** The connection ended: replies still to come are dropped. */
    @Override
    default void close() {}
  }
}
