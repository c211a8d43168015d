package io.mqroute.runtime;

import com.typesafe.config.Config;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.dispatch.MailboxType;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.ProducesMessageQueue;
import scala.Option;

/**
 * Mailbox type that {@link ClockMode#VIRTUAL} installs as the default for typed actors and stream
 * actors, so that a message sent into the simulation from a foreign thread is noticed even when the
 * receiving mailbox is already scheduled (see {@link VirtualTimeMessageQueue}). Same queue
 * semantics as Pekko's defaults for those actors ({@code SingleConsumerOnlyUnboundedMailbox}).
 */
public final class VirtualTimeMailbox
    implements MailboxType, ProducesMessageQueue<VirtualTimeMessageQueue> {

  /** The constructor Pekko calls reflectively. */
  public VirtualTimeMailbox(ActorSystem.Settings settings, Config config) {
    // Nothing to configure: the queue is unbounded and bound to the system's run queue at creation.
  }

  @Override
  public MessageQueue create(Option<ActorRef> owner, Option<ActorSystem> system) {
    if (system.isEmpty()) {
      throw new IllegalStateException(
          VirtualTimeMailbox.class.getName() + " needs the owning ActorSystem");
    }
    return new VirtualTimeMessageQueue(VirtualTimeScheduler.of(system.get()).runQueue());
  }
}
