package io.mqroute.cluster;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.protocol.Request;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.cluster.UniqueAddress;

/** Messages of a {@link RemoteQueue} (one routing slot of a host). */
public final class RemoteQueueProtocol {
  private RemoteQueueProtocol() {}

  /** What the host's shell tells a slot, and what reaches it from the router and the device. */
  public interface Command {}

  /** The Receptionist listed {@code queue} in this slot. */
  record Bind(ActorRef<Request> queue) implements Command {}

  /**
   * The queue left the listing; {@code unreachable}: the nodes this host sees as unreachable now.
   */
  record Unbind(Set<UniqueAddress> unreachable) implements Command {}

  /**
   * A node incarnation is gone for good (removed, unreachable) or its drain took too long. By
   * incarnation: a node restarted on the same host:port must not inherit the old one's drain.
   */
  record NodeGone(UniqueAddress node, String why) implements Command {}

  /** The node left the cluster for good: forget what it announced. */
  record NodeRemoved(UniqueAddress node) implements Command {}

  /** The router's message to its queue (the slot's ref takes them as they are). */
  record FromRouter(FlowProtocol.QueueCommand command) implements Command {}

  /** What the device sent to the slot's reply child (completions, drain announcements). */
  record FromDevice(Object message) implements Command {}

  enum Flush implements Command {
    INSTANCE
  }

  /** Checks whether a queue with requests outstanding has been silent for suspectAfter. */
  enum SuspectCheck implements Command {
    INSTANCE
  }

  /** The check's verdict, taken again behind whatever reached the mailbox since. */
  enum SuspectConfirm implements Command {
    INSTANCE
  }

  /** The next request a silent queue held may now be ended (its fence has passed). */
  enum EndDue implements Command {
    INSTANCE
  }
}
