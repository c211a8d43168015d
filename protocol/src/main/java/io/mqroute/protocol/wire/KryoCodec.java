package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.Pool;
import io.mqroute.protocol.WireMessage;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * Thread-safe, pooled Kryo encoder/decoder for {@link WireMessage}s, usable with or without an
 * ActorSystem. Kryo instances are not thread-safe, so each call borrows one from a pool; a frame is
 * one message and nothing else, at most {@code maxMessageSize} bytes.
 */
public final class KryoCodec {
  private final int maxMessageSize;
  private final Pool<Bundle> pool;
  private static final byte[] EMPTY = new byte[0];

  /** One Kryo with its reusable buffers: borrowed whole, so a call touches the pool once. */
  private static final class Bundle {
    final Kryo kryo = new Kryo();
    final Output output;
    final Input input = new Input();

    Bundle(ActorRefSerializer refs, int maxMessageSize, Consumer<Kryo> extra) {
      WireRegistry.register(kryo, refs);
      extra.accept(kryo);
      output = new Output(Math.min(256, maxMessageSize), maxMessageSize);
    }
  }

  /**
   * @param resolver resolves typed ActorRefs; null for a codec without an ActorSystem (refs then
   *     fail)
   * @param poolSize Kryo instances kept for reuse (more threads still work; extras are dropped)
   * @param maxMessageSize the largest frame written or accepted, in bytes
   */
  public KryoCodec(Supplier<ActorRefResolver> resolver, int poolSize, int maxMessageSize) {
    this(resolver, poolSize, maxMessageSize, k -> {});
  }

  /**
   * With {@code extra} registrations on each Kryo after the wire's (tests: a serializer that
   * misbehaves).
   */
  KryoCodec(
      Supplier<ActorRefResolver> resolver, int poolSize, int maxMessageSize, Consumer<Kryo> extra) {
    if (poolSize < 1) {
      throw new IllegalArgumentException("pool-size must be >= 1, was " + poolSize);
    }
    if (maxMessageSize < 16) {
      throw new IllegalArgumentException(
          "max-message-size must be >= 16 bytes, was " + maxMessageSize);
    }
    this.maxMessageSize = maxMessageSize;
    ActorRefSerializer refs = new ActorRefSerializer(resolver);
    this.pool =
        new Pool<>(true, false, poolSize) {
          @Override
          protected Bundle create() {
            return new Bundle(refs, maxMessageSize, extra);
          }
        };
  }

  public int maxMessageSize() {
    return maxMessageSize;
  }

  /**
   * @throws IllegalArgumentException if the class is not registered or the frame would exceed the
   *     limit
   */
  public byte[] encode(WireMessage message) {
    return encode(message, Arrays::copyOf);
  }

  /** Where {@link #encode(WireMessage, Sink)} hands the encoded bytes. */
  @FunctionalInterface
  public interface Sink<T> {
    /** The message is {@code bytes[0 .. length)}; the array is the codec's: read it, keep none. */
    T take(byte[] bytes, int length);
  }

  /**
   * Encodes into the codec's own buffer and hands it to {@code sink} while it holds it: a caller
   * that copies the bytes into its own buffer anyway (a socket's) saves the copy into a new array.
   *
   * @throws IllegalArgumentException as {@link #encode(WireMessage)}
   */
  public <T> T encode(WireMessage message, Sink<T> sink) {
    Bundle b = pool.obtain();
    try {
      Output out = b.output;
      out.reset();
      b.kryo.writeClassAndObject(out, message);
      return sink.take(out.getBuffer(), out.position());
    } catch (KryoException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("Buffer overflow")) {
        throw new IllegalArgumentException(
            message.getClass().getSimpleName()
                + " exceeds max-message-size "
                + maxMessageSize
                + " bytes",
            e);
      }
      throw e;
    } finally {
      pool.free(b);
    }
  }

  /**
   * @throws WireFormatException for anything but exactly one registered message that fills the
   *     frame
   */
  public WireMessage decode(byte[] bytes) {
    return decode(bytes, 0, bytes.length);
  }

  /**
   * Decodes {@code bytes[offset .. offset + length)}: a caller may read frames into one reusable
   * array (the decoded message keeps no reference to it).
   *
   * @throws WireFormatException as {@link #decode(byte[])}
   */
  public WireMessage decode(byte[] bytes, int offset, int length) {
    if (length > maxMessageSize) {
      throw new WireFormatException(
          "frame of " + length + " bytes exceeds max-message-size " + maxMessageSize);
    }
    Bundle b = pool.obtain();
    boolean reusable = true;
    try {
      Input in = b.input;
      in.setBuffer(bytes, offset, length);
      Object o = b.kryo.readClassAndObject(in);
      if (!(o instanceof WireMessage m)) {
        throw new WireFormatException(
            "frame holds "
                + (o == null ? "null" : o.getClass().getName())
                + ", not an mqroute message");
      }
      if (in.position() != offset + length) {
        throw new WireFormatException(
            (offset + length - in.position())
                + " trailing bytes after "
                + o.getClass().getSimpleName());
      }
      return m;
    } catch (KryoException
        | IllegalArgumentException
        | IllegalStateException
        | IndexOutOfBoundsException e) {
      // IllegalArgumentException: a record's canonical constructor rejected the decoded values;
      // IllegalStateException: an actor reference reached a codec that has no ActorSystem
      throw new WireFormatException("malformed frame: " + e.getMessage(), e);
    } catch (StackOverflowError | LinkageError | AssertionError e) {
      // Errors raised while decoding a peer's bytes (nesting too deep, a class that fails to load)
      // are the
      // frame's fault: drop the frame, not the association. The Kryo instance may be mid-state: not
      // reused.
      // Other VirtualMachineErrors (out of memory, internal) are the JVM's and pass.
      reusable = false;
      throw new WireFormatException("malformed frame: " + e.getClass().getSimpleName(), e);
    } finally {
      b.input.setBuffer(EMPTY); // drop the caller's bytes
      if (reusable) {
        pool.free(b);
      }
    }
  }
}
