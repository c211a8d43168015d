package io.mqroute.nbd;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import java.util.List;

/** Messages of the {@link RouterSubmitter} actor. */
public final class RouterSubmitterProtocol {
  private RouterSubmitterProtocol() {}

  /** What a router submitter handles. */
  public interface Command {}

  /**
   * NBD requests to send to the router, as the connection decoded them from one read; each is
   * answered through the session's answer callback.
   */
  public record SubmitAll(List<NbdBackend.Submission> batch) implements Command {}

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
