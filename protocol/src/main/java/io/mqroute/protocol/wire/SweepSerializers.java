package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.SweepMessage;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Explicit serializers of the {@link SweepMessage}s: refs as a tag ({@code 0} null, {@code 1} a
 * ref) and {@link ActorRefSerializer}'s path, payloads as a varint length (at most {@link
 * SweepMessage#MAX_CHUNK}, checked before anything is allocated) and the bytes.
 */
final class SweepSerializers {
  private SweepSerializers() {}

  private abstract static class Base<T> extends Serializer<T> {
    final ActorRefSerializer refs;

    Base(ActorRefSerializer refs) {
      super(false, true);
      this.refs = refs;
    }

    void writeRef(Kryo kryo, Output out, ActorRef<SweepMessage> ref) {
      out.writeVarInt(ref == null ? 0 : 1, true);
      if (ref != null) {
        refs.write(kryo, out, ref);
      }
    }

    @SuppressWarnings("unchecked")
    ActorRef<SweepMessage> readRef(Kryo kryo, Input in) {
      int tag = in.readVarInt(true);
      return switch (tag) {
        case 0 -> null;
        case 1 -> (ActorRef<SweepMessage>) refs.read(kryo, in, null);
        default -> throw new KryoException("invalid ref tag " + tag + " in a sweep message");
      };
    }

    static void writeBytes(Output out, byte[] b) {
      out.writeVarInt(b.length, true);
      out.writeBytes(b);
    }

    static byte[] readBytes(Input in) {
      int n = in.readVarInt(true);
      if (n < 0 || n > SweepMessage.MAX_CHUNK) {
        throw new KryoException("a sweep payload of " + n + " bytes");
      }
      return in.readBytes(n);
    }

    /** A record's own check, as the decoder's error (never an unchecked exception). */
    static <M> M checked(java.util.function.Supplier<M> make) {
      try {
        return make.get();
      } catch (IllegalArgumentException e) {
        throw new KryoException(e.getMessage());
      }
    }
  }

  static final class Hello extends Base<SweepMessage.Hello> {
    Hello(ActorRefSerializer refs) {
      super(refs);
    }

    @Override
    public void write(Kryo kryo, Output out, SweepMessage.Hello m) {
      writeRef(kryo, out, m.client());
    }

    @Override
    public SweepMessage.Hello read(Kryo kryo, Input in, Class<? extends SweepMessage.Hello> t) {
      return new SweepMessage.Hello(readRef(kryo, in));
    }
  }

  static final class Offer extends Base<SweepMessage.Offer> {
    Offer(ActorRefSerializer refs) {
      super(refs);
    }

    @Override
    public void write(Kryo kryo, Output out, SweepMessage.Offer m) {
      out.writeVarInt(m.slots(), true);
      writeRef(kryo, out, m.worker());
    }

    @Override
    public SweepMessage.Offer read(Kryo kryo, Input in, Class<? extends SweepMessage.Offer> t) {
      int slots = in.readVarInt(true);
      ActorRef<SweepMessage> worker = readRef(kryo, in);
      return checked(() -> new SweepMessage.Offer(worker, slots));
    }
  }

  static final class Run extends Base<SweepMessage.Run> {
    Run(ActorRefSerializer refs) {
      super(refs);
    }

    @Override
    public void write(Kryo kryo, Output out, SweepMessage.Run m) {
      out.writeVarLong(m.runId(), true);
      writeBytes(out, m.order());
      writeRef(kryo, out, m.client());
    }

    @Override
    public SweepMessage.Run read(Kryo kryo, Input in, Class<? extends SweepMessage.Run> t) {
      long id = in.readVarLong(true);
      byte[] order = readBytes(in);
      ActorRef<SweepMessage> client = readRef(kryo, in);
      return checked(() -> new SweepMessage.Run(id, order, client));
    }
  }

  static final class Part extends Base<SweepMessage.Part> {
    Part(ActorRefSerializer refs) {
      super(refs);
    }

    @Override
    public void write(Kryo kryo, Output out, SweepMessage.Part m) {
      out.writeVarLong(m.runId(), true);
      out.writeVarInt(m.index(), true);
      out.writeVarInt(m.count(), true);
      writeBytes(out, m.bytes());
      writeRef(kryo, out, m.worker());
    }

    @Override
    public SweepMessage.Part read(Kryo kryo, Input in, Class<? extends SweepMessage.Part> t) {
      long id = in.readVarLong(true);
      int index = in.readVarInt(true);
      int count = in.readVarInt(true);
      byte[] bytes = readBytes(in);
      ActorRef<SweepMessage> worker = readRef(kryo, in);
      return checked(() -> new SweepMessage.Part(id, index, count, bytes, worker));
    }
  }

  static final class Ack extends Base<SweepMessage.Ack> {
    Ack(ActorRefSerializer refs) {
      super(refs);
    }

    @Override
    public void write(Kryo kryo, Output out, SweepMessage.Ack m) {
      out.writeVarLong(m.runId(), true);
      out.writeVarInt(m.index(), true);
    }

    @Override
    public SweepMessage.Ack read(Kryo kryo, Input in, Class<? extends SweepMessage.Ack> t) {
      return new SweepMessage.Ack(in.readVarLong(true), in.readVarInt(true));
    }
  }

  static final class Failed extends Base<SweepMessage.Failed> {
    Failed(ActorRefSerializer refs) {
      super(refs);
    }

    @Override
    public void write(Kryo kryo, Output out, SweepMessage.Failed m) {
      out.writeVarLong(m.runId(), true);
      BoundedStringSerializer.writeString(out, m.reason());
      writeRef(kryo, out, m.worker());
    }

    @Override
    public SweepMessage.Failed read(Kryo kryo, Input in, Class<? extends SweepMessage.Failed> t) {
      long id = in.readVarLong(true);
      String reason = BoundedStringSerializer.readString(in);
      return new SweepMessage.Failed(id, reason == null ? "" : reason, readRef(kryo, in));
    }
  }
}
