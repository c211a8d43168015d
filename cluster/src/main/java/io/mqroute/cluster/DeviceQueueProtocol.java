package io.mqroute.cluster;

import io.mqroute.policies.queue.RingQueue;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of the {@link DeviceQueue} actor: what it handles and what it answers. */
public final class DeviceQueueProtocol {
  private DeviceQueueProtocol() {}

  /** What a device queue handles. */
  public interface Command {}

  /** A request from a router (the registered endpoint adapts every {@link Request} to this). */
  public record Submit(Request request) implements Command {}

  /** Requests from a router in one message (the endpoint adapts {@link RequestBatch} to this). */
  public record SubmitBatch(RequestBatch batch) implements Command {}

  /**
   * A request on this queue and where its completion goes: {@code batchReply}, or its own replyTo
   * if null.
   */
  record Accepted(Request request, ActorRef<CompletionBatch> batchReply) {}

  record Executed(Accepted job, long dispatchNanos, Status status) implements Command {}

  /**
   * File I/O of the jobs started while handling one message, done in one blocking task: each job's
   * status and, for a data-carrying read that succeeded, its bytes (null otherwise).
   */
  record ExecutedIo(
      List<Accepted> jobs, long dispatchNanos, List<Status> statuses, List<byte[]> data)
      implements Command {}

  enum Flush implements Command {
    INSTANCE
  }

  /** Asks for the queue's counters and invariant check; for tests and management. */
  public record GetStats(ActorRef<Stats> replyTo) implements Command {}

  /**
   * The {@link RingQueue}'s counters; {@code violations} lists broken invariants (ring bound,
   * in_flight == on_ring + queued), empty when all hold.
   */
  public record Stats(
      long accepted,
      long completed,
      int onRing,
      int queued,
      int maxOccupancy,
      long overflowWaits,
      long delayedRetries,
      long enomem,
      List<String> violations) {}

  /** The delayed-retry timer (full-ring = delayed-retry(...)) fired. */
  enum RetryTick implements Command {
    INSTANCE
  }

  /**
   * Coordinated shutdown asks the queue to withdraw and answers when it has drained (see the class
   * comment).
   */
  record Drain(ActorRef<Done> replyTo) implements Command {}

  enum Settled implements Command {
    INSTANCE
  }
}
