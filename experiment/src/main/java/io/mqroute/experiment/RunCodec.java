package io.mqroute.experiment;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.metrics.Digest;
import io.mqroute.runtime.RunStats;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * One finished run ({@link ExperimentRunner.Run}) as bytes, for a sweep spread over a cluster: a
 * worker encodes, the client decodes and {@link ExperimentRunner#assemble}s as if it had run it.
 *
 * <p>A result is a deep graph (jobs' histograms, samples, logs, the machine's counters) that the
 * result files read almost all of, so it is shipped whole, field by field, with Kryo: registration
 * required, every class with an explicit id ({@link #CLASSES}, never reordered: append), no Java
 * serialization. The bytes start with a fingerprint of that list, so a worker of another build is
 * refused with one line instead of decoding garbage. Results come from the cluster's own members
 * (mutual TLS), and the input is bounded ({@link #MAX_BYTES}) before anything is decoded.
 */
public final class RunCodec {
  private RunCodec() {}

  /** The largest encoded run accepted. */
  public static final int MAX_BYTES = 64 << 20;

  private static final int MAGIC = 0x6d717231; // "mqr1"

  /** Refused bytes: wrong build, truncated, too large, a class not registered. */
  public static final class Malformed extends IllegalArgumentException {
    Malformed(String message) {
      super(message);
    }
  }

  /** Every class a result holds, in id order from {@link #FIRST_ID}. Append only. */
  static final List<String> CLASSES = ClassList.NAMES;

  static final int FIRST_ID = 100;

  private static final long FINGERPRINT = fingerprint();

  private static final ThreadLocal<Kryo> KRYO = ThreadLocal.withInitial(RunCodec::kryo);

  /** Where a lambda stood (a job's sample sinks, dead once the run is over): shipped as null. */
  static final class Dropped {
    private Dropped() {}
  }

  /** Kryo's own id for String, whose reader is replaced by a bounded one. */
  static final int STRING_ID = 1;

  /** {@link Dropped}'s id, below {@link #FIRST_ID}. */
  static final int DROPPED_ID = 99;

  static Kryo kryo() {
    DefaultClassResolver resolver =
        new DefaultClassResolver() {
          @Override
          public Registration getRegistration(Class type) {
            // a lambda's class is generated at run time: it has no name two JVMs agree on
            return type != null && (type.isSynthetic() || type.isHidden())
                ? super.getRegistration(Dropped.class)
                : super.getRegistration(type);
          }
        };
    Kryo k = new Kryo(resolver, null);
    k.setRegistrationRequired(true);
    k.setReferences(true); // a result shares objects (job infos, options) and must stay shared
    k.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
    k.register(
        Dropped.class,
        new Serializer<Object>(false, true) {
          @Override
          public void write(Kryo kryo, Output output, Object object) {}

          @Override
          public Object read(Kryo kryo, Input input, Class<?> type) {
            return null;
          }
        },
        DROPPED_ID);
    k.register(String.class, new JdkCollections.Strings(), STRING_ID);
    for (int i = 0; i < CLASSES.size(); i++) {
      Class<?> c = load(CLASSES.get(i));
      Serializer<?> special = JdkCollections.serializer(c);
      if (special != null) {
        k.register(c, special, FIRST_ID + i);
      } else {
        k.register(c, FIRST_ID + i);
      }
    }
    return k;
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, RunCodec.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("RunCodec: class " + name + " not found", e);
    }
  }

  private static long fingerprint() {
    Digest d = Digest.create().putString("mqroute.run-codec.v2");
    CLASSES.forEach(d::putString);
    return Long.parseUnsignedLong(d.hex().substring(0, 16), 16);
  }

  public static byte[] encode(ExperimentRunner.Run run) {
    try (Output out = new Output(4096, MAX_BYTES)) {
      out.writeInt(MAGIC);
      out.writeLong(FINGERPRINT);
      out.writeLong(run.wallNanos());
      RunStats s = run.outcome().stats();
      out.writeVarInt(s.stopReason().ordinal(), true);
      out.writeLong(s.tasksRun());
      out.writeLong(s.timersFired());
      out.writeLong(s.deliveredRuns());
      out.writeLong(s.startVirtualNanos());
      out.writeLong(s.finalVirtualNanos());
      out.writeLong(s.foreignTasks());
      out.writeLong(s.wallNanos());
      KRYO.get().writeObject(out, run.outcome().result());
      return deflate(out.getBuffer(), out.position());
    } catch (KryoException e) {
      throw new IllegalStateException("cannot encode the run's result: " + e.getMessage(), e);
    }
  }

  /**
   * Latency histograms are mostly runs of zero counts: deflated, a result is a few KiB to ship
   * instead of 100 KiB to 1 MiB.
   */
  private static byte[] deflate(byte[] b, int length) {
    Deflater d = new Deflater(Deflater.BEST_SPEED);
    try {
      d.setInput(b, 0, length);
      d.finish();
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, length / 8));
      byte[] buf = new byte[64 << 10];
      while (!d.finished()) {
        out.write(buf, 0, d.deflate(buf));
      }
      return out.toByteArray();
    } finally {
      d.end();
    }
  }

  /** At most {@link #MAX_BYTES} out, whatever the input claims (a deflate bomb stops there). */
  private static byte[] inflate(byte[] b) {
    Inflater i = new Inflater();
    try {
      i.setInput(b);
      ByteArrayOutputStream out = new ByteArrayOutputStream(b.length * 4);
      byte[] buf = new byte[64 << 10];
      while (!i.finished()) {
        int n = i.inflate(buf);
        if (n == 0 && (i.needsInput() || i.needsDictionary())) {
          throw new Malformed("a truncated run's result");
        }
        if (out.size() + n > MAX_BYTES) {
          throw new Malformed("a run's result inflating to more than " + MAX_BYTES + " bytes");
        }
        out.write(buf, 0, n);
      }
      return out.toByteArray();
    } catch (DataFormatException e) {
      throw new Malformed("a run's result that does not inflate: " + e.getMessage());
    } finally {
      i.end();
    }
  }

  /**
   * @throws Malformed if the bytes are not a run of this build
   */
  public static ExperimentRunner.Run decode(byte[] bytes) {
    if (bytes.length > MAX_BYTES) {
      throw new Malformed("a run's result of " + bytes.length + " bytes, more than " + MAX_BYTES);
    }
    bytes = inflate(bytes);
    try (Input in = new Input(bytes)) {
      if (bytes.length < 12 || in.readInt() != MAGIC) { // NOPMD: a short array is checked first
        throw new Malformed("not a run's result");
      }
      if (in.readLong() != FINGERPRINT) {
        throw new Malformed("a run's result from another build of mqroute (its classes differ)");
      }
      long wall = in.readLong();
      int reason = in.readVarInt(true);
      if (reason >= RunStats.StopReason.values().length) {
        throw new Malformed("stop reason " + reason);
      }
      RunStats stats =
          new RunStats(
              RunStats.StopReason.values()[reason],
              in.readLong(),
              in.readLong(),
              in.readLong(),
              in.readLong(),
              in.readLong(),
              in.readLong(),
              in.readLong());
      MachineResult result = KRYO.get().readObject(in, MachineResult.class);
      if (!in.end()) {
        throw new Malformed("bytes after the run's result");
      }
      return new ExperimentRunner.Run(
          new MachineRun.Outcome(result, stats, Map.of(), Map.of()), wall);
    } catch (KryoException | IllegalArgumentException | IllegalStateException e) {
      if (e instanceof Malformed m) {
        throw m;
      }
      throw new Malformed("a malformed run's result: " + e.getMessage());
    } catch (StackOverflowError e) {
      throw new Malformed("a run's result nested too deeply");
    }
  }
}
