package io.mqroute.runtime;

import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.NodeMessageQueue;
import org.apache.pekko.dispatch.UnboundedMessageQueueSemantics;

/**
 * Pekko's single-consumer message queue (the typed and stream default) plus one check: a message
 * enqueued by a thread other than the driver into a simulated actor's queue is reported to the
 * {@link RunQueue} as foreign.
 *
 * <p>Needed because a message sent to an actor whose mailbox is already scheduled never reaches the
 * run queue, so the run queue alone cannot see a foreign thread sending into the simulation.
 *
 * <p>In virtual time every typed actor gets this queue, including the few Pekko-internal ones on
 * real dispatchers, so the queue must tell them apart: it counts as simulated once it has been
 * created or consumed on the driver thread. (A simulated actor created by another thread, i.e. a
 * root actor, is covered from its first message on; before that its mailbox is idle and a foreign
 * send shows up as a foreign run-queue task instead.)
 */
final class VirtualTimeMessageQueue implements MessageQueue, UnboundedMessageQueueSemantics {
  private final NodeMessageQueue queue = new NodeMessageQueue();
  private final RunQueue runQueue;
  private volatile boolean simulated;

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
    } else if (runQueue.censusRunning()) {
      runQueue.count(handle.message());
    }
    queue.enqueue(receiver, handle);
  }

  @Override
  public Envelope dequeue() {
    if (!simulated && runQueue.isDriverThread()) {
      simulated = true;
    }
    return queue.dequeue();
  }

  @Override
  public int numberOfMessages() {
    return queue.numberOfMessages();
  }

  @Override
  public boolean hasMessages() {
    return queue.hasMessages();
  }

  @Override
  public void cleanUp(ActorRef owner, MessageQueue deadLetters) {
    queue.cleanUp(owner, deadLetters);
  }
}
