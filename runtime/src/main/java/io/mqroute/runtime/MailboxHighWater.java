package io.mqroute.runtime;

import com.typesafe.config.Config;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.dispatch.Envelope;
import org.apache.pekko.dispatch.MailboxType;
import org.apache.pekko.dispatch.MessageQueue;
import org.apache.pekko.dispatch.NodeMessageQueue;
import org.apache.pekko.dispatch.ProducesMessageQueue;
import org.apache.pekko.dispatch.UnboundedMessageQueueSemantics;
import scala.Option;

/**
 * A mailbox that remembers the most messages it ever held, per actor: how a test shows that no
 * mailbox grows (a slow consumer backpressures instead). It is the clock's own mailbox underneath
 * ({@link VirtualTimeMailbox}'s queue in virtual time, Pekko's single-consumer node queue in real
 * time) plus an atomic count, so it costs two atomic operations per message: for tests and
 * diagnosis only. {@link ClockMode#config(Config)} installs it for every typed and stream actor
 * when {@value #KEY} is on; {@link #of} reads the high-water marks of a system.
 */
public final class MailboxHighWater
    implements MailboxType, ProducesMessageQueue<MailboxHighWater.Measured> {

  /** The switch, off by default (reference.conf). */
  public static final String KEY = RuntimeSettings.PATH + ".measure-mailboxes";

  /** Per system, per actor path, the most messages its mailbox held. */
  private static final Map<ActorSystem, Map<String, AtomicInteger>> MARKS =
      Collections.synchronizedMap(new WeakHashMap<>());

  /** The constructor Pekko calls reflectively. */
  public MailboxHighWater(ActorSystem.Settings settings, Config config) {
    // Nothing to configure: the marks are kept per system.
  }

  @Override
  public MessageQueue create(Option<ActorRef> owner, Option<ActorSystem> system) {
    if (system.isEmpty()) {
      throw new IllegalStateException(MailboxHighWater.class.getName() + " needs its ActorSystem");
    }
    ActorSystem s = system.get();
    MessageQueue queue =
        s.scheduler() instanceof VirtualTimeScheduler v
            ? new VirtualTimeMessageQueue(v.runQueue())
            : new NodeMessageQueue();
    String path = owner.isDefined() ? owner.get().path().toStringWithoutAddress() : "(no owner)";
    AtomicInteger mark =
        MARKS
            .computeIfAbsent(s, k -> new ConcurrentHashMap<>())
            .computeIfAbsent(path, k -> new AtomicInteger());
    return new Measured(queue, mark);
  }

  /**
   * The most messages each actor's mailbox held at once, by actor path (without the address),
   * sorted; empty unless the system measured them.
   */
  public static Map<String, Integer> of(org.apache.pekko.actor.typed.ActorSystem<?> system) {
    Map<String, AtomicInteger> marks = MARKS.get(Adapter.toClassic(system));
    Map<String, Integer> out = new TreeMap<>();
    if (marks != null) {
      marks.forEach((path, mark) -> out.put(path, mark.get()));
    }
    return out;
  }

  /** The clock's queue with a count of the messages in it and its high-water mark. */
  static final class Measured implements MessageQueue, UnboundedMessageQueueSemantics {
    private final MessageQueue queue;
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger mark;

    Measured(MessageQueue queue, AtomicInteger mark) {
      this.queue = queue;
      this.mark = mark;
    }

    @Override
    public void enqueue(ActorRef receiver, Envelope handle) {
      int n = size.incrementAndGet();
      mark.accumulateAndGet(n, Math::max);
      queue.enqueue(receiver, handle);
    }

    @Override
    public Envelope dequeue() {
      Envelope e = queue.dequeue();
      if (e != null) {
        size.decrementAndGet();
      }
      return e;
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
}
