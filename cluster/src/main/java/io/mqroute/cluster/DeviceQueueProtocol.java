package io.mqroute.cluster;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.policies.queue.RingQueue;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import java.util.List;
import org.apache.pekko.Done;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of the {@link DeviceQueue} actor: what it handles and what it answers. */
public final class DeviceQueueProtocol {
  private DeviceQueueProtocol() {}

  /** What a device queue handles: the request path ({@link Data}) or the rest ({@link Control}). */
  public sealed interface Command permits Data, Control {}

  /** A request's path: requests in, the model queue's ends, completions out in batches. */
  public sealed interface Data extends Command {}

  /** Everything else: counters, invariant checks, the drain at shutdown. */
  public sealed interface Control extends Command {}

  /** A request from a router (the registered endpoint adapts every {@link Request} to this). */
  public record Submit(Request request) implements Data {}

  /** Requests from a router in one message (the endpoint adapts {@link RequestBatch} to this). */
  public record SubmitBatch(RequestBatch batch) implements Data {}

  /**
   * What the model's queue tells its "router": here, this shell ({@code Ended}, {@code Reroute}).
   */
  record FromQueue(FlowProtocol.RouterCommand message) implements Data {}

  /**
   * What the queue gives its core to do ({@code CoreProtocol.Exec}: its harvest and the end of a
   * request): the device queue is its queue's core, so an end reaches it in one hop, not two.
   */
  record CoreWork(io.mqroute.actors.machine.CoreProtocol.Command work) implements Data {}

  /** The model's queue's counters, for a {@link GetStats}. */
  record QueueStatsFor(FlowProtocol.QueueStats stats) implements Control {}

  enum Flush implements Data {
    INSTANCE
  }

  /** Asks for the queue's counters and invariant check; for tests and management. */
  public record GetStats(ActorRef<Stats> replyTo) implements Control {}

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

  /**
   * Coordinated shutdown asks the queue to withdraw and answers when it has drained (see the class
   * comment).
   */
  record Drain(ActorRef<Done> replyTo) implements Control {}

  enum Settled implements Control {
    INSTANCE
  }
}
