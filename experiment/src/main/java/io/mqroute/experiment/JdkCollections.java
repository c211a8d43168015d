package io.mqroute.experiment;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.EnumMapSerializer;
import io.mqroute.metrics.Direction;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntFunction;

/**
 * {@link RunCodec}'s serializers for the JDK's collections, arrays and strings. Kryo's defaults
 * would fill the wrappers through {@code add}/{@code put}, which they refuse, or read their private
 * fields, which Java 17 does not open; and they size what they allocate by the count a peer claims.
 * Here each collection is written as its elements and read back as an equal one of the same kind
 * (same order, same answers; the class behind it may differ), and no count is believed beyond the
 * bytes left to read.
 */
final class JdkCollections {
  private JdkCollections() {}

  /** The serializer for {@code c}, or null when Kryo's own is right. */
  static Serializer<?> serializer(Class<?> c) {
    return switch (c.getName()) {
      case "java.util.ArrayList" -> new Elements<>(l -> l);
      case "java.util.LinkedList" -> new Elements<>(LinkedList::new);
      case "java.util.HashSet" -> new Elements<>(HashSet::new);
      case "java.util.LinkedHashSet" -> new Elements<>(LinkedHashSet::new);
      case "java.util.TreeSet" -> new Elements<>(TreeSet::new);
      case "java.util.Collections$UnmodifiableList",
          "java.util.Collections$UnmodifiableRandomAccessList" ->
          new Elements<List<Object>>(Collections::unmodifiableList);
      case "java.util.Arrays$ArrayList" ->
          new Elements<List<Object>>(l -> Arrays.asList(l.toArray()));
      case "java.util.Collections$UnmodifiableSet" ->
          new Elements<>(l -> Collections.unmodifiableSet(new LinkedHashSet<>(l)));
      case "java.util.ImmutableCollections$List12", "java.util.ImmutableCollections$ListN" ->
          new Elements<>(List::copyOf);
      case "java.util.ImmutableCollections$Set12", "java.util.ImmutableCollections$SetN" ->
          new Elements<>(Set::copyOf);
      case "java.util.HashMap" -> new Entries(m -> new HashMap<>(m));
      case "java.util.LinkedHashMap" -> new Entries(m -> m);
      case "java.util.TreeMap" -> new Entries(TreeMap::new);
      case "java.util.Collections$UnmodifiableMap" -> new Entries(Collections::unmodifiableMap);
      case "java.util.ImmutableCollections$Map1", "java.util.ImmutableCollections$MapN" ->
          new Entries(Map::copyOf);
      // results key EnumMaps by direction only (JobStats); another key type fails the round trip
      case "java.util.EnumMap" -> new EnumMapSerializer(Direction.class);
      case "[J" ->
          new Fixed<>(
              8, long[]::new, (o, a, i) -> o.writeLong(a[i]), (in, a, i) -> a[i] = in.readLong());
      case "[D" ->
          new Fixed<>(
              8,
              double[]::new,
              (o, a, i) -> o.writeDouble(a[i]),
              (in, a, i) -> a[i] = in.readDouble());
      case "[I" ->
          new Fixed<>(
              4, int[]::new, (o, a, i) -> o.writeInt(a[i]), (in, a, i) -> a[i] = in.readInt());
      case "[B" ->
          new Fixed<>(
              1, byte[]::new, (o, a, i) -> o.writeByte(a[i]), (in, a, i) -> a[i] = in.readByte());
      case "[Z" ->
          new Fixed<>(
              1,
              boolean[]::new,
              (o, a, i) -> o.writeBoolean(a[i]),
              (in, a, i) -> a[i] = in.readBoolean());
      default ->
          c.isArray() && !c.getComponentType().isPrimitive()
              ? new Refs(c.getComponentType())
              : null;
    };
  }

  /**
   * A claimed element count, at most the bytes left to read (every element takes at least one): a
   * peer cannot make the reader allocate for elements it did not send.
   */
  static int size(Input in, int bytesPerElement) {
    int n = in.readVarInt(true);
    long left = in.limit() - in.position();
    if (n < 0 || (long) n * bytesPerElement > left) {
      throw new KryoException("a collection of " + n + " elements in " + left + " bytes");
    }
    return n;
  }

  /** UTF-8 with its length, bounded by the bytes left (Kryo's reader sizes its buffer first). */
  static final class Strings extends Serializer<String> {
    Strings() {
      super(true, true);
    }

    @Override
    public void write(Kryo kryo, Output out, String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      out.writeVarInt(b.length, true);
      out.writeBytes(b);
    }

    @Override
    public String read(Kryo kryo, Input in, Class<? extends String> type) {
      return new String(in.readBytes(size(in, 1)), StandardCharsets.UTF_8);
    }
  }

  private interface Put<A> {
    void at(Output out, A array, int i);
  }

  private interface Take<A> {
    void at(Input in, A array, int i);
  }

  /** A primitive array, fixed width per element (deflate takes the zeros of histograms). */
  private static final class Fixed<A> extends Serializer<A> {
    private final int width;
    private final IntFunction<A> make;
    private final Put<A> put;
    private final Take<A> take;

    Fixed(int width, IntFunction<A> make, Put<A> put, Take<A> take) {
      super(false, true);
      this.width = width;
      this.make = make;
      this.put = put;
      this.take = take;
    }

    @Override
    public void write(Kryo kryo, Output out, A a) {
      int n = Array.getLength(a);
      out.writeVarInt(n, true);
      for (int i = 0; i < n; i++) {
        put.at(out, a, i);
      }
    }

    @Override
    public A read(Kryo kryo, Input in, Class<? extends A> type) {
      int n = size(in, width);
      A a = make.apply(n);
      for (int i = 0; i < n; i++) {
        take.at(in, a, i);
      }
      return a;
    }
  }

  /** An array of references (String[], Object[], ...). */
  private static final class Refs extends Serializer<Object[]> {
    private final Class<?> component;

    Refs(Class<?> component) {
      super(false, true);
      this.component = component;
    }

    @Override
    public void write(Kryo kryo, Output out, Object[] a) {
      out.writeVarInt(a.length, true);
      for (Object o : a) {
        kryo.writeClassAndObject(out, o);
      }
    }

    @Override
    public Object[] read(Kryo kryo, Input in, Class<? extends Object[]> type) {
      int n = size(in, 1);
      Object[] a = (Object[]) Array.newInstance(component, n);
      kryo.reference(a);
      for (int i = 0; i < n; i++) {
        a[i] = kryo.readClassAndObject(in);
      }
      return a;
    }
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
      int n = size(in, 1);
      List<Object> l = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        l.add(kryo.readClassAndObject(in));
      }
      return wrap.apply(l);
    }
  }

  private static final class Entries extends Serializer<Map<Object, Object>> {
    private final Function<Map<Object, Object>, Map<Object, Object>> wrap;

    Entries(Function<Map<Object, Object>, Map<Object, Object>> wrap) {
      super(true, true);
      this.wrap = wrap;
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
      int n = size(in, 2);
      Map<Object, Object> m = new LinkedHashMap<>();
      for (int i = 0; i < n; i++) {
        m.put(kryo.readClassAndObject(in), kryo.readClassAndObject(in));
      }
      return wrap.apply(m);
    }
  }
}
