package io.mqroute.nbd;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

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

  /**
   * A session for the {@code connection}-th connection that takes requests in batches and answers
   * them in batches: each submission is answered exactly once, through {@code answers} (called on
   * any thread, also from within {@link BatchSession#submit}). A server that decodes several
   * requests from one read hands them over in one call, and a backend that completes several at
   * once answers them in one, so a busy connection costs a message per batch, not per request. By
   * default the requests go one by one to {@link #open}'s session.
   */
  default BatchSession openBatched(int connection, Consumer<List<Answer>> answers) {
    Session session = open(connection);
    return new BatchSession() {
      @Override
      public void submit(List<Submission> batch) {
        RuntimeException refused = null;
        for (Submission s : batch) {
          long cookie = s.cookie();
          try {
            session
                .submit(s.op(), s.offset(), s.length(), s.data())
                .whenComplete(
                    (r, e) ->
                        answers.accept(
                            List.of(
                                new Answer(
                                    cookie,
                                    e == null && r != null ? r : Reply.error(NbdWire.EIO)))));
          } catch (RuntimeException e) {
            answers.accept(List.of(new Answer(cookie, Reply.error(NbdWire.EIO))));
            refused = refused == null ? e : refused;
          }
        }
        if (refused != null) {
          throw refused;
        }
      }

      @Override
      public void close() {
        session.close();
      }
    };
  }

  /**
   * One request of a batch: {@code cookie} names it in its {@link Answer}, {@code submitNanos} is
   * when the server read it ({@code System.nanoTime()}).
   */
  record Submission(long cookie, Op op, long offset, int length, byte[] data, long submitNanos) {}

  /** The reply to the submission with {@code cookie}. */
  record Answer(long cookie, Reply reply) {}

  /** One connection's requests, in batches (see {@link #openBatched}). */
  interface BatchSession extends AutoCloseable {
    /**
     * Starts the requests of {@code batch}. Every one is answered exactly once, also when this
     * throws: an exception only reports that the backend refused some of them (answered with EIO).
     */
    void submit(List<Submission> batch);

    /** The connection ended: answers still to come are dropped. */
    @Override
    default void close() {}
  }

  /** One connection's requests. */
  interface Session extends AutoCloseable {
    /**
     * Starts one request; the stage completes (on any thread) with its reply. {@code data} is a
     * write's bytes ({@code length} of them), null for the other ops.
     */
    CompletionStage<Reply> submit(Op op, long offset, int length, byte[] data);

    /** The connection ended: replies still to come are dropped. */
    @Override
    default void close() {}
  }
}
