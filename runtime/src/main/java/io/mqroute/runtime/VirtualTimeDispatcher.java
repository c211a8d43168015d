package io.mqroute.runtime;

import org.apache.pekko.actor.ActorCell;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.LocalActorRef;
import org.apache.pekko.actor.typed.internal.adapter.ActorRefAdapter;
import org.apache.pekko.dispatch.Dispatcher;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.ExecutorServiceFactoryProvider;
import org.apache.pekko.dispatch.Mailbox;
import org.apache.pekko.dispatch.MessageDispatcherConfigurator;
import scala.concurrent.duration.Duration;
import scala.concurrent.duration.FiniteDuration;

/**
 * Pekko's {@link Dispatcher} with the single-threaded run queue's shortcut: a simulated actor's
 * mailbox run is scheduled and ended by the driver alone, so "is it scheduled" is a plain field of
 * its {@link VirtualTimeMessageQueue} instead of the two compare-and-sets on the mailbox's status
 * that Pekko pays per run for senders on any thread (issue #18, cheaper events). The run itself
 * does what {@code Mailbox.run} does, in the same order: the system messages first, then up to
 * {@code throughput} messages, each followed by the system messages, and a new run at the back of
 * the queue if messages are left. So every run happens where it happened before and no result
 * changes.
 *
 * <p>A thread other than the driver (an actor's creation, termination, a message from outside the
 * simulation) always queues a run of its own, a foreign task: it cannot see the driver's plain
 * field, and a redundant run finds nothing to do. Mailboxes of any other queue type take Pekko's
 * path unchanged.
 */
final class VirtualTimeDispatcher extends Dispatcher {
  private final RunQueue runQueue;

  VirtualTimeDispatcher(
      MessageDispatcherConfigurator configurator,
      String id,
      int throughput,
      Duration throughputDeadlineTime,
      ExecutorServiceFactoryProvider executor,
      FiniteDuration shutdownTimeout,
      RunQueue runQueue) {
    super(configurator, id, throughput, throughputDeadlineTime, executor, shutdownTimeout);
    this.runQueue = runQueue;
  }

  @Override
  public boolean registerForExecution(
      Mailbox mbox, boolean hasMessageHint, boolean hasSystemMessageHint) {
    if (!(mbox.messageQueue() instanceof VirtualTimeMessageQueue q)) {
      return super.registerForExecution(mbox, hasMessageHint, hasSystemMessageHint);
    }
    if (!mbox.canBeScheduledForExecution(hasMessageHint, hasSystemMessageHint)) {
      return false;
    }
    if (runQueue.isDriverThread()) {
      if (q.runScheduled) {
        return false;
      }
      q.runScheduled = true;
      runQueue.execute(q.driverRun(this, mbox));
    } else {
      runQueue.execute(new Run(this, mbox, false));
    }
    return true;
  }

  /**
   * A lone timed delivery straight into its receiver (issue #18): when the receiver is a local
   * actor on a virtual-time dispatcher whose mailbox is empty, idle, not suspended and has no
   * system messages, the driver invokes it with the message at once, as the mailbox run that the
   * message would start (and that the driver would run next) would: no enqueue, no run object, no
   * dequeue. During the invocation the mailbox counts as running, so what is sent to the actor then
   * waits for a run of its own queued after it, as after a run. Driver thread only.
   *
   * @return false (nothing done) when the receiver is not such an actor: tell it instead
   */
  static boolean invokeIdle(org.apache.pekko.actor.typed.ActorRef<?> to, Object message) {
    if (!(to instanceof ActorRefAdapter<?> adapter)
        || !(adapter.classicRef() instanceof LocalActorRef local)) {
      return false;
    }
    ActorCell cell = local.underlying();
    if (!(cell.dispatcher() instanceof VirtualTimeDispatcher d)
        || cell.system().settings().SerializeAllMessages()) {
      return false;
    }
    Mailbox mbox = cell.mailbox();
    if (!(mbox.messageQueue() instanceof VirtualTimeMessageQueue q)
        || q.runScheduled
        || !mbox.shouldProcessMessage()
        || mbox.hasSystemMessages()
        || mbox.hasMessages()) {
      return false;
    }
    if (d.runQueue.censusRunning()) {
      d.runQueue.count(message);
    }
    q.runScheduled = true;
    try {
      cell.invoke(Envelope.apply(message, ActorRef.noSender(), cell.system()));
      mbox.processAllSystemMessages();
      // what it sent itself meanwhile, as the rest of that run would
      processMessages(mbox, Math.max(d.throughput(), 1) - 1);
    } finally {
      q.runScheduled = false;
      d.registerForExecution(mbox, false, false);
    }
    return true;
  }

  /** Up to {@code left} messages, each followed by the system messages, as {@code Mailbox.run}. */
  private static void processMessages(Mailbox mbox, int left) {
    while (left-- > 0 && mbox.shouldProcessMessage()) {
      Envelope next = mbox.dequeue();
      if (next == null) {
        break;
      }
      mbox.actor().invoke(next);
      if (Thread.interrupted()) {
        // Pekko throws here; the driver has nobody to throw to: keep the flag for its caller
        Thread.currentThread().interrupt();
        break;
      }
      mbox.processAllSystemMessages();
    }
  }

  /** One mailbox run: {@code Mailbox.run} without its status updates. */
  static final class Run implements Runnable {
    private final VirtualTimeDispatcher dispatcher;
    private final Mailbox mbox;
    private final boolean fromDriver;

    Run(VirtualTimeDispatcher dispatcher, Mailbox mbox, boolean fromDriver) {
      this.dispatcher = dispatcher;
      this.mbox = mbox;
      this.fromDriver = fromDriver;
    }

    @Override
    public void run() {
      try {
        if (!mbox.isClosed()) {
          mbox.processAllSystemMessages();
          processMessages(mbox, Math.max(dispatcher.throughput(), 1));
        }
      } finally {
        if (fromDriver) {
          ((VirtualTimeMessageQueue) mbox.messageQueue()).runScheduled = false;
        }
        dispatcher.registerForExecution(mbox, false, false);
      }
    }

    @Override
    public String toString() {
      return "mailbox run of " + (mbox.actor() == null ? "?" : mbox.actor().self().path());
    }
  }
}
