package io.mqroute.runtime.mm1;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * The message types of the M/M/1 flow, defined once so that submitter and server do not import each
 * other.
 */
public final class Mm1Messages {
  private Mm1Messages() {}

  /** Messages the server accepts. */
  public interface ServerCommand {}

  /** Messages the submitter accepts. */
  public interface SubmitterCommand {}

  public record Request(long id, long submittedAtNanos, ActorRef<Completed> replyTo)
      implements ServerCommand {}

  public record Completed(long id, long submittedAtNanos) implements SubmitterCommand {}

  /** The server's service timer. */
  public enum ServiceDone implements ServerCommand {
    INSTANCE
  }

  /** The submitter's arrival timer. */
  public enum Arrival implements SubmitterCommand {
    INSTANCE
  }
}
