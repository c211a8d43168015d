package io.mqroute.cluster;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import java.util.List;
import java.util.Set;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.cluster.UniqueAddress;

/** Messages of a {@link RemoteQueue} (one routing slot of a host). */
public final class RemoteQueueProtocol {
  private RemoteQueueProtocol() {}

  /**
   * What the host's shell tells a slot, and what reaches it from the router and the device: the
   * request path ({@link Data}) or the rest ({@link Control}).
   */
  public sealed interface Command permits Data, Control {}

  /** A request's path: requests from the router, completions from the device, their batching. */
  public sealed interface Data extends Command {}

  /**
   * Everything else: the listing, node loss and drains, suspicion and giving up, the router's
   * evacuations and reports.
   */
  public sealed interface Control extends Command {}

  /** The Receptionist listed {@code queue} in this slot. */
  record Bind(ActorRef<Request> queue) implements Control {}

  /**
   * The queue left the listing; {@code unreachable}: the nodes this host sees as unreachable now.
   */
  record Unbind(Set<UniqueAddress> unreachable) implements Control {}

  /**
   * A node incarnation is gone for good (removed, unreachable) or its drain took too long. By
   * incarnation: a node restarted on the same host:port must not inherit the old one's drain.
   */
  record NodeGone(UniqueAddress node, String why) implements Control {}

  /** The node left the cluster for good: forget what it announced. */
  record NodeRemoved(UniqueAddress node) implements Control {}

  /** The router routed a request to this slot (the slot's ref takes the router's messages). */
  record Routed(Request request) implements Data {}

  /** The router routed these requests to this slot, in this order (its EnqueueAll). */
  record RoutedAll(List<Request> requests) implements Data {}

  /** The router's other messages to its queue: evacuations, reports, the model's faults. */
  record FromRouter(FlowProtocol.QueueCommand command) implements Control {}

  /** Completions the device sent to the slot's reply child. */
  record FromDevice(Object message) implements Data {}

  /** A drain the device announced to the slot's reply child. */
  record DeviceDraining(QueueDraining draining) implements Control {}

  enum Flush implements Data {
    INSTANCE
  }

  /** Checks whether a queue with requests outstanding has been silent for suspectAfter. */
  enum SuspectCheck implements Control {
    INSTANCE
  }

  /** The check's verdict, taken again behind whatever reached the mailbox since. */
  enum SuspectConfirm implements Control {
    INSTANCE
  }

  /** The next request a silent queue held may now be ended (its fence has passed). */
  enum EndDue implements Control {
    INSTANCE
  }
}
