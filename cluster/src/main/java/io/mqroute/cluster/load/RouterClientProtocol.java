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

  /** What a router client handles. */
  public interface Command {}

  /** The job's request, as its {@code Route} reaches its router. */
  record Submitted(Request request) implements Command {}

  /** Completions from the host (a batch, or one). */
  record FromHost(List<Completion> completions) implements Command {}

  /** The job this client serves (it is spawned after the client, which is its router). */
  record ForJob(ActorRef<JobProtocol.Command> job) implements Command {}

  /** The job stalled: end everything in flight, then tell {@code replyTo} how many. */
  record Abandon(ActorRef<Long> replyTo) implements Command {}

  /** Ends by status so far. */
  record GetStatuses(ActorRef<Map<Status, Long>> replyTo) implements Command {}

  enum Flush implements Command {
    INSTANCE
  }

  /** The host's {@code HostAlive}: it holds requests of ours that wait on a device. */
  enum HostLives implements Command {
    INSTANCE
  }

  enum CheckHost implements Command {
    INSTANCE
  }
}
