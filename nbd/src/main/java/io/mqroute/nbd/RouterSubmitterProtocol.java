package io.mqroute.nbd;

import io.mqroute.protocol.Completion;
import java.util.List;

/** Messages of the {@link RouterSubmitter} actor. */
public final class RouterSubmitterProtocol {
  private RouterSubmitterProtocol() {}

  /**
   * What a router submitter handles: the request path ({@link Data}) or the rest ({@link Control}).
   */
  public sealed interface Command permits Data, Control {}

  /** A request's path: the connection's requests out, the router's completions back. */
  public sealed interface Data extends Command {}

  /** Everything else: the connection's end, the host's keep-alive. */
  public sealed interface Control extends Command {}

  /**
   * NBD requests to send to the router, as the connection decoded them from one read; each is
   * answered through the session's answer callback.
   */
  public record SubmitAll(List<NbdBackend.Submission> batch) implements Data {}

  /** The connection ended: stop, dropping what is still to come. */
  public enum Stop implements Control {
    INSTANCE
  }

  /** The router's completions: a batch, or one sent on its own. */
  record Completed(List<Completion> completions) implements Data {}

  /**
   * The host router's keep-alive (HostAlive) for requests it holds: this submitter shares the
   * router's process, so it has no host to lose and ignores it.
   */
  enum HostHolds implements Control {
    INSTANCE
  }

  /** Sends what was submitted while the mailbox was busy as batches (self-sent, no timer). */
  enum Flush implements Data {
    INSTANCE
  }
}
