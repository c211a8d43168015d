package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.protocol.SweepMessage;
import io.mqroute.protocol.WireMessage;
import java.util.List;

/**
 * The one place where classes get their Kryo ids. Every node must register the same classes with
 * the same ids, so ids are explicit and never reused: add new classes with new ids at the end of
 * their range, and never change an existing line (the golden-bytes test catches it).
 *
 * <pre>
 *   0..8     Kryo's primitives and String (String re-registered with a bounded reader)
 *   20       typed ActorRef (Pekko's internal ActorRefAdapter, the class behind every typed ref)
 *   30..49   enums
 *   100..    messages
 * </pre>
 */
public final class WireRegistry {
  /** Kryo registers String with id 1 in its constructor; we replace only its serializer. */
  static final int STRING_ID = 1;

  static final int ACTOR_REF_ID = 20;

  /** Pekko's concrete class behind every typed ActorRef (local, remote, promise, adapters). */
  static final String ACTOR_REF_CLASS =
      "org.apache.pekko.actor.typed.internal.adapter.ActorRefAdapter";

  /**
   * Messages and their ids, in id order. The per-request messages and their batches have explicit
   * serializers ({@link RequestSerializer}, {@link CompletionSerializer}, {@link
   * BatchSerializers}), and so has every other message ({@link QueueDrainingSerializer}, {@link
   * HostAliveSerializer}): Kryo's RecordSerializer reads a field of an interface or Object type
   * with readClassAndObject, which lets a frame nest messages without bound.
   */
  private static final List<Entry> MESSAGES =
      List.of(
          new Entry(Request.class, 100),
          new Entry(Completion.class, 101),
          new Entry(RequestBatch.class, 102),
          new Entry(CompletionBatch.class, 103),
          new Entry(QueueDraining.class, 104),
          new Entry(HostAlive.class, 105),
          new Entry(SweepMessage.Hello.class, 106),
          new Entry(SweepMessage.Offer.class, 107),
          new Entry(SweepMessage.Run.class, 108),
          new Entry(SweepMessage.Part.class, 109),
          new Entry(SweepMessage.Ack.class, 110),
          new Entry(SweepMessage.Failed.class, 111));

  private record Entry(Class<? extends WireMessage> type, int id) {}

  private WireRegistry() {}

  /** The message classes that cross the wire (every one must round-trip; the tests check). */
  public static List<Class<? extends WireMessage>> messageClasses() {
    return MESSAGES.stream().<Class<? extends WireMessage>>map(Entry::type).toList();
  }

  /** Registers everything on a fresh Kryo with registration required. */
  static void register(Kryo kryo, ActorRefSerializer actorRefSerializer) {
    kryo.setRegistrationRequired(true);
    kryo.setReferences(false); // immutable records, no cycles: no reference table per message
    kryo.register(String.class, new BoundedStringSerializer(), STRING_ID);
    kryo.register(actorRefClass(), actorRefSerializer, ACTOR_REF_ID);
    kryo.register(Op.class, 30);
    kryo.register(Status.class, 31);
    RequestSerializer requests = new RequestSerializer(actorRefSerializer);
    CompletionSerializer completions = new CompletionSerializer();
    kryo.register(Request.class, requests, 100);
    kryo.register(Completion.class, completions, 101);
    kryo.register(
        RequestBatch.class, new BatchSerializers.Requests(requests, actorRefSerializer), 102);
    kryo.register(CompletionBatch.class, new BatchSerializers.Completions(completions), 103);
    kryo.register(QueueDraining.class, new QueueDrainingSerializer(actorRefSerializer), 104);
    kryo.register(HostAlive.class, new HostAliveSerializer(), 105);
    kryo.register(SweepMessage.Hello.class, SweepSerializers.hello(actorRefSerializer), 106);
    kryo.register(SweepMessage.Offer.class, SweepSerializers.offer(actorRefSerializer), 107);
    kryo.register(SweepMessage.Run.class, SweepSerializers.run(actorRefSerializer), 108);
    kryo.register(SweepMessage.Part.class, SweepSerializers.part(actorRefSerializer), 109);
    kryo.register(SweepMessage.Ack.class, SweepSerializers.ack(), 110);
    kryo.register(SweepMessage.Failed.class, SweepSerializers.failed(actorRefSerializer), 111);
    for (Entry e : MESSAGES) {
      // no default (reflective) serializer for a message: a new one must come with its own
      if (kryo.getClassResolver().getRegistration(e.id()) == null) {
        throw new IllegalStateException(e.type().getName() + " has no explicit serializer");
      }
    }
  }

  private static Class<?> actorRefClass() {
    try {
      return Class.forName(ACTOR_REF_CLASS, false, WireRegistry.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(
          "Pekko typed ActorRef class not found: " + ACTOR_REF_CLASS, e);
    }
  }
}
