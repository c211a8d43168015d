package io.mqroute.cluster;

import io.mqroute.protocol.Request;
import io.mqroute.protocol.WireMessage;
import io.mqroute.protocol.wire.KryoCodec;
import java.util.Arrays;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.JSerializer;

/**
 * A hostile peer's serializer, for {@link MalformedFrameTest}: bound on the sending system in place
 * of the Kryo serializer (same identifier, so the receiver decodes the bytes with the real one).
 * Requests with a magic {@code fileId} become malformed frames; everything else is encoded
 * faithfully.
 */
public final class GarbageSerializer extends JSerializer {
  static final long GARBAGE = -666;
  static final long UNKNOWN_ID = -667;
  static final long OVERSIZED = -668;
  static final long TRAILING = -669;

  private final int identifier;
  private final KryoCodec codec;

  public GarbageSerializer(ExtendedActorSystem system) {
    this.identifier = system.settings().config().getInt("mqroute.wire.serializer-id");
    this.codec = new KryoCodec(() -> ActorRefResolver.get(Adapter.toTyped(system)), 2, 1 << 20);
  }

  @Override
  public int identifier() {
    return identifier;
  }

  @Override
  public boolean includeManifest() {
    return false;
  }

  @Override
  public byte[] toBinary(Object o) {
    if (o instanceof Request r) {
      if (r.fileId() == GARBAGE) {
        return new byte[] {
          (byte) (100 + 2), (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1
        };
      }
      if (r.fileId() == UNKNOWN_ID) {
        return new byte[] {(byte) (99 + 2), 0, 0, 0};
      }
      if (r.fileId() == OVERSIZED) {
        byte[] b = new byte[70 * 1024]; // over the 64 KiB message limit, under the 72 KiB frame
        b[0] = (byte) (100 + 2);
        return b;
      }
      if (r.fileId() == TRAILING) {
        byte[] ok = codec.encode(r.withReplyTo(null));
        return Arrays.copyOf(ok, ok.length + 3);
      }
    }
    return codec.encode((WireMessage) o);
  }

  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    return codec.decode(bytes);
  }
}
