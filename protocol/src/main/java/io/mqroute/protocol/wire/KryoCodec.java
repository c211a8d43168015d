package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import io.mqroute.protocol.WireMessage;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * Thread-safe, pooled Kryo encoder/decoder for {@link WireMessage}s, usable with or without an ActorSystem.
 * Kryo instances are not thread-safe, so each call borrows one from a pool; a frame is one message and
 * nothing else, at most {@code maxMessageSize} bytes.
 */
public final class KryoCodec {
  private final int maxMessageSize;
  private final Pool<Kryo> kryos;
  private final Pool<Output> outputs;

  /**
   * @param resolver       resolves typed ActorRefs; null for a codec without an ActorSystem (refs then fail)
   * @param poolSize       Kryo instances kept for reuse (more threads still work; extras are dropped)
   * @param maxMessageSize the largest frame written or accepted, in bytes
   */
  public KryoCodec(Supplier<ActorRefResolver> resolver, int poolSize, int maxMessageSize) {
    if (poolSize < 1) {
      throw new IllegalArgumentException("pool-size must be >= 1, was " + poolSize);
    }
    if (maxMessageSize < 16) {
      throw new IllegalArgumentException("max-message-size must be >= 16 bytes, was " + maxMessageSize);
    }
    this.maxMessageSize = maxMessageSize;
    ActorRefSerializer refs = new ActorRefSerializer(resolver);
    this.kryos =
        new Pool<>(true, false, poolSize) {
          @Override
          protected Kryo create() {
            Kryo k = new Kryo();
            WireRegistry.register(k, refs);
            return k;
          }
        };
    this.outputs =
        new Pool<>(true, false, poolSize) {
          @Override
          protected Output create() {
            return new Output(Math.min(256, maxMessageSize), maxMessageSize);
          }
        };
  }

  public int maxMessageSize() {
    return maxMessageSize;
  }

  /**
   * @throws IllegalArgumentException if the class is not registered or the frame would exceed the limit
   */
  public byte[] encode(WireMessage message) {
    Kryo kryo = kryos.obtain();
    Output out = outputs.obtain();
    try {
      out.reset();
      kryo.writeClassAndObject(out, message);
      return out.toBytes();
    } catch (KryoException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("Buffer overflow")) {
        throw new IllegalArgumentException(
            message.getClass().getSimpleName() + " exceeds max-message-size " + maxMessageSize + " bytes", e);
      }
      throw e;
    } finally {
      outputs.free(out);
      kryos.free(kryo);
    }
  }

  /**
   * @throws WireFormatException for anything but exactly one registered message that fills the frame
   */
  public WireMessage decode(byte[] bytes) {
    if (bytes.length > maxMessageSize) {
      throw new WireFormatException(
          "frame of " + bytes.length + " bytes exceeds max-message-size " + maxMessageSize);
    }
    Kryo kryo = kryos.obtain();
    try {
      Input in = new Input(bytes);
      Object o = kryo.readClassAndObject(in);
      if (!(o instanceof WireMessage m)) {
        throw new WireFormatException(
            "frame holds " + (o == null ? "null" : o.getClass().getName()) + ", not an mqroute message");
      }
      if (in.position() != bytes.length) {
        throw new WireFormatException(
            (bytes.length - in.position()) + " trailing bytes after " + o.getClass().getSimpleName());
      }
      return m;
    } catch (KryoException | IllegalArgumentException | IllegalStateException | IndexOutOfBoundsException e) {
      // IllegalArgumentException: a record's canonical constructor rejected the decoded values;
      // IllegalStateException: an actor reference reached a codec that has no ActorSystem
      throw new WireFormatException("malformed frame: " + e.getMessage(), e);
    } finally {
      kryos.free(kryo);
    }
  }
}
