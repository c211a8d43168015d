package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * {@link QueueDraining} with its ref written by {@link ActorRefSerializer} directly. Kryo's
 * RecordSerializer read the {@code queue} field (an interface type) with {@code
 * readClassAndObject}, so a frame could nest QueueDraining in QueueDraining as deep as its bytes
 * allowed and overflow the decoder's stack.
 *
 * <p>Same bytes as RecordSerializer wrote (components in name order): {@code nodeUid} as a zigzag
 * varlong, then the ref as Kryo's class tag ({@code 0} = null, {@code ACTOR_REF_ID + 2} = a ref)
 * and its path; any other tag is refused, so nodes of the previous build still understand each
 * other.
 */
final class QueueDrainingSerializer extends Serializer<QueueDraining> {
  private static final int NULL_TAG = 0;
  private static final int REF_TAG = WireRegistry.ACTOR_REF_ID + 2;
  private final ActorRefSerializer refs;

  QueueDrainingSerializer(ActorRefSerializer refs) {
    super(false, true);
    this.refs = refs;
  }

  @Override
  public void write(Kryo kryo, Output out, QueueDraining d) {
    out.writeVarLong(d.nodeUid(), false);
    if (d.queue() == null) {
      out.writeVarInt(NULL_TAG, true);
    } else {
      out.writeVarInt(REF_TAG, true);
      refs.write(kryo, out, d.queue());
    }
  }

  @Override
  @SuppressWarnings("unchecked")
  public QueueDraining read(Kryo kryo, Input in, Class<? extends QueueDraining> type) {
    long uid = in.readVarLong(false);
    int tag = in.readVarInt(true);
    ActorRef<Request> queue =
        switch (tag) {
          case NULL_TAG -> null;
          case REF_TAG -> (ActorRef<Request>) refs.read(kryo, in, null);
          default -> throw new KryoException("invalid queue ref tag " + tag + " in QueueDraining");
        };
    return new QueueDraining(queue, uid);
  }
}
