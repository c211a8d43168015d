package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.SweepMessage;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Explicit serializers of the {@link SweepMessage}s: refs as a tag ({@code 0} null, {@code 1} a
 * ref) and {@link ActorRefSerializer}'s path, payloads as a varint length (at most {@link
 * SweepMessage#MAX_CHUNK}, checked before anything is allocated) and the bytes.
 */
final class SweepSerializers {
  private SweepSerializers() {}

  static Serializer<SweepMessage.Hello> hello(ActorRefSerializer refs) {
    return of(
        (kryo, out, m) -> writeRef(refs, kryo, out, m.client()),
        (kryo, in) -> new SweepMessage.Hello(readRef(refs, kryo, in)));
  }

  static Serializer<SweepMessage.Offer> offer(ActorRefSerializer refs) {
    return of(
        (kryo, out, m) -> {
          out.writeVarInt(m.slots(), true);
          writeRef(refs, kryo, out, m.worker());
        },
        (kryo, in) -> {
          int slots = in.readVarInt(true);
          ActorRef<SweepMessage> worker = readRef(refs, kryo, in);
          return checked(() -> new SweepMessage.Offer(worker, slots));
        });
  }

  static Serializer<SweepMessage.Run> run(ActorRefSerializer refs) {
    return of(
        (kryo, out, m) -> {
          out.writeVarLong(m.runId(), true);
          writeBytes(out, m.order());
          writeRef(refs, kryo, out, m.client());
        },
        (kryo, in) -> {
          long id = in.readVarLong(true);
          byte[] order = readBytes(in);
          ActorRef<SweepMessage> client = readRef(refs, kryo, in);
          return checked(() -> new SweepMessage.Run(id, order, client));
        });
  }

  static Serializer<SweepMessage.Part> part(ActorRefSerializer refs) {
    return of(
        (kryo, out, m) -> {
          out.writeVarLong(m.runId(), true);
          out.writeVarInt(m.index(), true);
          out.writeVarInt(m.count(), true);
          writeBytes(out, m.bytes());
          writeRef(refs, kryo, out, m.worker());
        },
        (kryo, in) -> {
          long id = in.readVarLong(true);
          int index = in.readVarInt(true);
          int count = in.readVarInt(true);
          byte[] bytes = readBytes(in);
          ActorRef<SweepMessage> worker = readRef(refs, kryo, in);
          return checked(() -> new SweepMessage.Part(id, index, count, bytes, worker));
        });
  }

  static Serializer<SweepMessage.Ack> ack() {
    return of(
        (kryo, out, m) -> {
          out.writeVarLong(m.runId(), true);
          out.writeVarInt(m.index(), true);
        },
        (kryo, in) -> new SweepMessage.Ack(in.readVarLong(true), in.readVarInt(true)));
  }

  static Serializer<SweepMessage.Failed> failed(ActorRefSerializer refs) {
    return of(
        (kryo, out, m) -> {
          out.writeVarLong(m.runId(), true);
          BoundedStringSerializer.writeString(out, m.reason());
          writeRef(refs, kryo, out, m.worker());
        },
        (kryo, in) -> {
          long id = in.readVarLong(true);
          String reason = BoundedStringSerializer.readString(in);
          return new SweepMessage.Failed(id, reason == null ? "" : reason, readRef(refs, kryo, in));
        });
  }

  @FunctionalInterface
  private interface Writer<T> {
    void write(Kryo kryo, Output out, T m);
  }

  @FunctionalInterface
  private interface Reader<T> {
    T read(Kryo kryo, Input in);
  }

  private static <T> Serializer<T> of(Writer<T> writer, Reader<T> reader) {
    return new Serializer<>(false, true) {
      @Override
      public void write(Kryo kryo, Output out, T m) {
        writer.write(kryo, out, m);
      }

      @Override
      public T read(Kryo kryo, Input in, Class<? extends T> type) {
        return reader.read(kryo, in);
      }
    };
  }

  private static void writeRef(
      ActorRefSerializer refs, Kryo kryo, Output out, ActorRef<SweepMessage> ref) {
    out.writeVarInt(ref == null ? 0 : 1, true);
    if (ref != null) {
      refs.write(kryo, out, ref);
    }
  }

  @SuppressWarnings("unchecked")
  private static ActorRef<SweepMessage> readRef(ActorRefSerializer refs, Kryo kryo, Input in) {
    int tag = in.readVarInt(true);
    return switch (tag) {
      case 0 -> null;
      case 1 -> (ActorRef<SweepMessage>) refs.read(kryo, in, null);
      default -> throw new KryoException("invalid ref tag " + tag + " in a sweep message");
    };
  }

  private static void writeBytes(Output out, byte[] b) {
    out.writeVarInt(b.length, true);
    out.writeBytes(b);
  }

  private static byte[] readBytes(Input in) {
    int n = in.readVarInt(true);
    if (n < 0 || n > SweepMessage.MAX_CHUNK) {
      throw new KryoException("a sweep payload of " + n + " bytes");
    }
    return in.readBytes(n);
  }

  /** A record's own check, as the decoder's error (never an unchecked exception). */
  private static <M> M checked(Supplier<M> make) {
    try {
      return make.get();
    } catch (IllegalArgumentException e) {
      throw new KryoException(e.getMessage());
    }
  }
}
