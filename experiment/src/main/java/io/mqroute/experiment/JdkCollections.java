package io.mqroute.experiment;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.EnumMapSerializer;
import io.mqroute.metrics.Direction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * {@link RunCodec}'s serializers for the JDK's wrapper collections: Kryo's defaults would fill them
 * through {@code add}/{@code put}, which they refuse, or read their private fields, which Java 17
 * does not open. Each is written as its elements and read back as an equal wrapper of the same kind
 * (same order, same answers; the class behind it may differ).
 */
final class JdkCollections {
  private JdkCollections() {}

  /** Elements a shipped collection may claim before anything is allocated for them. */
  static final int MAX_ELEMENTS = 1 << 24;

  /** The serializer for {@code c}, or null when Kryo's own is right. */
  static Serializer<?> serializer(Class<?> c) {
    return switch (c.getName()) {
      case "java.util.Collections$UnmodifiableList",
          "java.util.Collections$UnmodifiableRandomAccessList" ->
          new Elements<List<Object>>(l -> Collections.unmodifiableList(l));
      case "java.util.Arrays$ArrayList" ->
          new Elements<List<Object>>(l -> Arrays.asList(l.toArray()));
      case "java.util.Collections$UnmodifiableSet" ->
          new Elements<>(l -> Collections.unmodifiableSet(new LinkedHashSet<>(l)));
      case "java.util.Collections$UnmodifiableMap" -> new Entries();
      // results key EnumMaps by direction only (JobStats); another key type fails the round trip
      case "java.util.EnumMap" -> new EnumMapSerializer(Direction.class);
      default -> null;
    };
  }

  static int size(Input in) {
    int n = in.readVarInt(true);
    if (n < 0 || n > MAX_ELEMENTS) {
      throw new KryoException("a collection of " + n + " elements");
    }
    return n;
  }

  private static final class Elements<C extends Collection<Object>> extends Serializer<C> {
    private final Function<List<Object>, C> wrap;

    Elements(Function<List<Object>, C> wrap) {
      super(true, true);
      this.wrap = wrap;
    }

    @Override
    public void write(Kryo kryo, Output out, C c) {
      out.writeVarInt(c.size(), true);
      for (Object o : c) {
        kryo.writeClassAndObject(out, o);
      }
    }

    @Override
    public C read(Kryo kryo, Input in, Class<? extends C> type) {
      int n = size(in);
      List<Object> l = new ArrayList<>(Math.min(n, 1024));
      for (int i = 0; i < n; i++) {
        l.add(kryo.readClassAndObject(in));
      }
      return wrap.apply(l);
    }
  }

  private static final class Entries extends Serializer<Map<Object, Object>> {
    Entries() {
      super(true, true);
    }

    @Override
    public void write(Kryo kryo, Output out, Map<Object, Object> m) {
      out.writeVarInt(m.size(), true);
      for (Map.Entry<Object, Object> e : m.entrySet()) {
        kryo.writeClassAndObject(out, e.getKey());
        kryo.writeClassAndObject(out, e.getValue());
      }
    }

    @Override
    public Map<Object, Object> read(Kryo kryo, Input in, Class<? extends Map<Object, Object>> t) {
      int n = size(in);
      Map<Object, Object> m = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        m.put(kryo.readClassAndObject(in), kryo.readClassAndObject(in));
      }
      return Collections.unmodifiableMap(m);
    }
  }
}
