package io.mqroute.runtime;

import java.util.ArrayDeque;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.Mailbox;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.NodeMessageQueue;
import org.apache.pekko.dispatch.UnboundedMessageQueueSemantics;

/**
 * Pekko's single-consumer message queue (the typed and stream default) plus two things the
 * single-threaded run queue allows.
 *
 * <p>A message enqueued by a thread other than the driver into a simulated actor's queue is
 * reported to the {@link RunQueue} as foreign. Needed because a message sent to an actor whose
 * mailbox is already scheduled never reaches the run queue, so the run queue alone cannot see a
 * foreign thread sending into the simulation.
 *
 * <p>Once the driver has consumed from the queue (the actor runs on the run queue), a message the
 * driver enqueues goes to a plain {@link ArrayDeque} that only the driver touches (issue #18): no
 * atomic exchange and no node per message, where Pekko's queue pays both for senders on any thread.
 * Messages enqueued before that, and by any other thread, stay in Pekko's queue, which {@link
 * #dequeue} drains first: the driver's own messages keep their order (the switch happens once, and
 * everything in Pekko's queue at that point is older), and a foreign message during a run aborts it
 * anyway.
 *
 * <p>In virtual time every typed actor gets this queue, including the few Pekko-internal ones on
 * real dispatchers, so the queue must tell them apart: it counts as simulated once it has been
 * created or consumed on the driver thread. (A simulated actor created by another thread, i.e. a
 * root actor, is covered from its first message on; before that its mailbox is idle and a foreign
 * send shows up as a foreign run-queue task instead.) An actor consumed on another thread never
 * uses the driver's deque.
 */
final class VirtualTimeMessageQueue implements MessageQueue, UnboundedMessageQueueSemantics {
  private final NodeMessageQueue queue = new NodeMessageQueue();
  private final RunQueue runQueue;
  private volatile boolean simulated;

  /** The driver's messages once the driver consumes here; driver thread only. */
  private ArrayDeque<Envelope> local;

  /**
   * A run of this mailbox that the driver queued is pending ({@link VirtualTimeDispatcher}); driver
   * thread only.
   */
  boolean runScheduled;

  private VirtualTimeDispatcher.Run driverRun;

  /** The run the driver queues for this mailbox (one object, reused). */
  VirtualTimeDispatcher.Run driverRun(VirtualTimeDispatcher dispatcher, Mailbox mbox) {
    VirtualTimeDispatcher.Run r = driverRun;
    if (r == null) {
      r = new VirtualTimeDispatcher.Run(dispatcher, mbox, true);
      driverRun = r;
    }
    return r;
  }

  VirtualTimeMessageQueue(RunQueue runQueue) {
    this.runQueue = runQueue;
    this.simulated = runQueue.isDriverThread();
  }

  @Override
  public void enqueue(ActorRef receiver, Envelope handle) {
    // Count before publishing: otherwise the driver could process the message and end its run
    // before the count moves.
    if (!runQueue.isDriverThread()) {
      if (simulated) {
        runQueue.foreignMessageArrived(handle.message());
      }
    } else {
      if (runQueue.censusRunning()) {
        runQueue.count(handle.message());
      }
      if (local != null) {
        local.addLast(handle);
        return;
      }
    }
    queue.enqueue(receiver, handle);
  }

  @Override
  public Envelope dequeue() {
    if (runQueue.isDriverThread()) {
      if (local == null) {
        simulated = true;
        local = new ArrayDeque<>();
      }
      Envelope older = queue.dequeue();
      return older != null ? older : local.pollFirst();
    }
    return queue.dequeue();
  }

  @Override
  public int numberOfMessages() {
    ArrayDeque<Envelope> l = local;
    return queue.numberOfMessages() + (l == null ? 0 : l.size());
  }

  @Override
  public boolean hasMessages() {
    ArrayDeque<Envelope> l = local;
    return queue.hasMessages() || (l != null && !l.isEmpty());
  }

  @Override
  public void cleanUp(ActorRef owner, MessageQueue deadLetters) {
    queue.cleanUp(owner, deadLetters);
    ArrayDeque<Envelope> l = local;
    if (l != null) {
      for (Envelope e; (e = l.pollFirst()) != null; ) {
        deadLetters.enqueue(owner, e);
      }
    }
  }
}
