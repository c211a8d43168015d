package io.mqroute.nbd;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import java.util.concurrent.CompletableFuture;

/** Messages of the {@link RouterSubmitter} actor. */
public final class RouterSubmitterProtocol {
  private RouterSubmitterProtocol() {}

  /** What a router submitter handles. */
  public interface Command {}

  /**
   * One NBD request to send to the router; {@code reply} completes with its NBD reply. {@code
   * submitNanos} is taken by the caller ({@code System.nanoTime}), as the behaviour reads no clock.
   */
  public record Submit(
      NbdBackend.Op op,
      long offset,
      int length,
      byte[] data,
      long submitNanos,
      CompletableFuture<NbdBackend.Reply> reply)
      implements Command {}

  /** The connection ended: stop, dropping what is still to come. */
  public enum Stop implements Command {
    INSTANCE
  }

  record Completed(Completion completion) implements Command {}

  record CompletedBatch(CompletionBatch batch) implements Command {}

  /** Sends what was submitted while the mailbox was busy as batches (self-sent, no timer). */
  /**
   * The host router's keep-alive (HostAlive) for requests it holds: this submitter shares the
   * router's process, so it has no host to lose and ignores it.
   */
  enum HostHolds implements Command {
    INSTANCE
  }

  enum Flush implements Command {
    INSTANCE
  }
}
