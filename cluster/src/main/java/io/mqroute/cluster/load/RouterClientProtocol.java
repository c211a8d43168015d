package io.mqroute.cluster.load;

import io.mqroute.actors.machine.JobProtocol;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a {@link RouterClient} (a load clone's router). */
public final class RouterClientProtocol {
  private RouterClientProtocol() {}

  /**
   * What a router client handles: the request path ({@link Data}) or the rest ({@link Control}).
   */
  public sealed interface Command permits Data, Control {}

  /** A request's path: the job's requests out, the host's completions back, their batching. */
  public sealed interface Data extends Command {}

  /** Everything else: the job to serve, host liveness, abandoning after a stall, counters. */
  public sealed interface Control extends Command {}

  /** The job's request, as its {@code Route} reaches its router. */
  record Submitted(Request request) implements Data {}

  /** Completions from the host (a batch, or one). */
  record FromHost(List<Completion> completions) implements Data {}

  /** The job this client serves (it is spawned after the client, which is its router). */
  record ForJob(ActorRef<JobProtocol.Command> job) implements Control {}

  /** The job stalled: end everything in flight, then tell {@code replyTo} how many. */
  record Abandon(ActorRef<Long> replyTo) implements Control {}

  /** Ends by status so far. */
  record GetStatuses(ActorRef<Map<Status, Long>> replyTo) implements Control {}

  enum Flush implements Data {
    INSTANCE
  }

  /** The host's {@code HostAlive}: it holds requests of ours that wait on a device. */
  enum HostLives implements Control {
    INSTANCE
  }

  enum CheckHost implements Control {
    INSTANCE
  }
}
