package io.mqroute.cluster;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.UniqueAddress;

/** Messages of the {@link HostRouter} actor: what it handles and what it answers. */
public final class HostRouterProtocol {
  private HostRouterProtocol() {}

  /** What a host router handles: the request path ({@link Data}) or the rest ({@link Control}). */
  public sealed interface Command permits Data, Control {}

  /**
   * A request's path: clients' requests in, completions out, and the batching that carries them.
   */
  public sealed interface Data extends Command {}

  /** Everything else: the listing, node loss, keep-alives, questions from tests and management. */
  public sealed interface Control extends Command {}

  /** A client's request; its {@code replyTo} receives exactly one completion. */
  public record Submit(Request request) implements Data {}

  /**
   * A client's requests in one message (the entry adapts {@link RequestBatch} to this): each gets
   * exactly one completion, in {@link CompletionBatch}es to the batch's {@code replyTo}.
   */
  public record SubmitBatch(RequestBatch batch) implements Data {}

  /** Asks for the queue refs by slot (null for a free slot); for tests and management. */
  public record GetSlots(ActorRef<Slots> replyTo) implements Control {}

  /**
   * The answer to {@link GetSlots}: {@code queues.get(slot)} and {@code nrReqs.get(slot)} for every
   * slot.
   */
  public record Slots(List<ActorRef<Request>> queues, List<Integer> nrReqs, int inFlight) {}

  /**
   * Asks whether {@code slot}'s queue has requests waiting on this host (beyond its window); for
   * tests.
   */
  public record GetWaiting(ActorRef<List<Integer>> replyTo) implements Control {}

  /** The Receptionist's listing of device queues changed (package-private: tests inject one). */
  record ListingChanged(Receptionist.Listing listing) implements Control {}

  /**
   * A node incarnation's queues are gone for good (removed, unreachable) or their drain took too
   * long. By incarnation: a node restarted on the same host:port must not inherit the old one's
   * drain or its timer.
   */
  record NodeGone(UniqueAddress node, String why, boolean unreachable) implements Control {}

  /** The node became reachable again (this host's own view). */
  record NodeReachable(UniqueAddress node) implements Control {}

  /** The node left the cluster for good: forget what it announced. */
  record NodeRemoved(UniqueAddress node) implements Control {}

  /** The router ended one of this host's requests (host id). */
  record Finished(Completion completion) implements Data {}

  /**
   * What the router gives its cores to do ({@code CoreProtocol.Exec}: the reap of a completion):
   * the host router is its router's core, so a completion reaches it in one hop instead of three
   * (core, reply child, host router).
   */
  record CoreWork(io.mqroute.actors.machine.CoreProtocol.Command work) implements Data {}

  enum Flush implements Data {
    INSTANCE
  }

  /** Every {@code HostRouter.KEEP_ALIVE}: tell silent batch clients that this host still lives. */
  enum KeepAliveTick implements Control {
    INSTANCE
  }
}
