package io.mqroute.cluster;

import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.WireMessage;
import io.mqroute.protocol.wire.KryoCodec;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
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

  /**
   * File ids at or below this are seeded mutations of the request's real encoding (seed: {@code
   * FUZZ - fileId}), for {@link WireFuzzTest}.
   */
  static final long FUZZ = -1_000_000;

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
    if (o instanceof RequestBatch b
        && !b.requests().isEmpty()
        && b.requests().get(0).fileId() <= FUZZ) {
      Request r = b.requests().get(0);
      Request clean =
          new Request(
              r.id(),
              r.op(),
              1,
              r.offset(),
              r.length(),
              r.background(),
              r.cpu(),
              r.submitNanos(),
              r.replyTo());
      RequestBatch ok =
          new RequestBatch(List.of(clean), b.replyTo(), b.sentNanos(), b.fenceNanos());
      return mutate(codec.encode(ok), new SplittableRandom(FUZZ - r.fileId()));
    }
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

  /** One of the ways a peer's bytes go wrong: flipped bits, cut, padded, replaced, re-tagged. */
  static byte[] mutate(byte[] ok, SplittableRandom r) {
    byte[] b = ok.clone();
    switch (r.nextInt(7)) {
      case 0 -> {
        for (int i = r.nextInt(1, 4); i > 0; i--) {
          b[r.nextInt(b.length)] ^= (byte) (1 << r.nextInt(8));
        }
      }
      case 1 -> b = Arrays.copyOf(ok, r.nextInt(ok.length));
      case 2 -> {
        b = Arrays.copyOf(ok, ok.length + r.nextInt(1, 64));
        for (int i = ok.length; i < b.length; i++) {
          b[i] = (byte) r.nextInt();
        }
      }
      case 3 -> {
        b = new byte[r.nextInt(1, 512)];
        r.nextBytes(b);
      }
      case 4 -> b[0] = (byte) r.nextInt(); // another (or no) registered class
      case 5 -> {
        // a varint that never ends, or a length that claims the world
        int at = r.nextInt(b.length);
        for (int i = at; i < Math.min(b.length, at + 5); i++) {
          b[i] = (byte) 0xff;
        }
      }
      default -> {
        b = new byte[r.nextInt(60 * 1024, 70 * 1024)];
        r.nextBytes(b);
        b[0] = ok[0];
      }
    }
    return b;
  }

  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    return codec.decode(bytes);
  }
}
