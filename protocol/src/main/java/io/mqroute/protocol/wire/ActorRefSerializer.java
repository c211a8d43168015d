package io.mqroute.protocol.wire;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;

/**
 * A typed {@link ActorRef} as its serialization-format string (with the remote address), resolved
 * on read through {@link ActorRefResolver}. The resolver is looked up lazily because Pekko builds
 * serializers while the ActorSystem is still starting.
 */
final class ActorRefSerializer extends Serializer<ActorRef<?>> {
  /**
   * What {@code toSerializationFormat} writes: {@code pekko://system[@host:port]/path#uid}, path
   * elements in Pekko's ActorPath.ElementRegex characters.
   */
  private static final Pattern ACTOR_PATH =
      Pattern.compile(
          "pekko://[A-Za-z0-9][-A-Za-z0-9_]*(@[-A-Za-z0-9.\\[\\]:]+:[0-9]{1,5})?"
              + "(/[-\\w:@&=+,.!~*'$;%]+)+(#-?[0-9]+)?");

  /**
   * Paths resolved and refs written lately: a batch carries its reply address, which would
   * otherwise be checked and resolved (or formatted) again for every batch.
   */
  static final int CACHE = 256;

  private final Supplier<ActorRefResolver> resolverSupplier;
  private volatile ActorRefResolver resolver;
  private final RecentCache<String, ActorRef<?>> resolved = new RecentCache<>(CACHE);
  private final RecentCache<ActorRef<?>, String> formatted = new RecentCache<>(CACHE);

  /**
   * @param resolverSupplier null when there is no ActorSystem: writing or reading a ref then fails
   */
  ActorRefSerializer(Supplier<ActorRefResolver> resolverSupplier) {
    super(false, true);
    this.resolverSupplier = resolverSupplier;
  }

  private ActorRefResolver resolver() {
    ActorRefResolver r = resolver;
    if (r == null) {
      if (resolverSupplier == null) {
        throw new IllegalStateException("an ActorRef can only be serialized inside an ActorSystem");
      }
      r = resolverSupplier.get();
      resolver = r;
    }
    return r;
  }

  @Override
  public void write(Kryo kryo, Output output, ActorRef<?> ref) {
    BoundedStringSerializer.writeString(
        output, formatted.get(ref, r -> resolver().toSerializationFormat(r)));
  }

  @Override
  public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
    String path = BoundedStringSerializer.readString(input);
    if (path == null) {
      throw new KryoException("null actor path");
    }
    return resolved.get(
        path,
        p -> {
          if (!ACTOR_PATH.matcher(p).matches()) {
            // refused here: Pekko's provider would log a warning for each one it cannot resolve
            throw new KryoException("not an actor path");
          }
          return resolver().resolveActorRef(p);
        });
  }
}
