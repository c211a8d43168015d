package io.mqroute.protocol.wire;

import com.typesafe.config.Config;
import io.mqroute.protocol.WireMessage;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.JSerializer;

/**
 * The Pekko serializer for every {@link WireMessage}, bound in this module's {@code
 * reference.conf}. Pekko creates it reflectively with the {@code (ExtendedActorSystem)}
 * constructor; settings live under {@code mqroute.wire}.
 */
public final class KryoSerializer extends JSerializer {
  private final int identifier;
  private final KryoCodec codec;
  private final LongAdder malformed = new LongAdder();

  public KryoSerializer(ExtendedActorSystem system) {
    Config cfg = system.settings().config().getConfig("mqroute.wire");
    this.identifier = cfg.getInt("serializer-id");
    long max = cfg.getBytes("max-message-size");
    if (max > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "mqroute.wire.max-message-size must be < 2 GiB, was " + max);
    }
    this.codec =
        new KryoCodec(
            () -> ActorRefResolver.get(Adapter.toTyped(system)),
            cfg.getInt("pool-size"),
            (int) max);
  }

  @Override
  public int identifier() {
    return identifier;
  }

  @Override
  public boolean includeManifest() {
    return false; // the Kryo registration id says what the bytes are
  }

  @Override
  public byte[] toBinary(Object o) {
    if (!(o instanceof WireMessage m)) {
      throw new IllegalArgumentException("not an mqroute WireMessage: " + o.getClass().getName());
    }
    return codec.encode(m);
  }

  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    try {
      return codec.decode(bytes);
    } catch (WireFormatException e) {
      malformed.increment();
      throw e;
    }
  }

  /** Messages this system's serializer refused as malformed so far (Pekko drops and logs each). */
  public long malformed() {
    return malformed.sum();
  }
}
