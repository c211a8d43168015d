package io.mqroute.bench.wire;

import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.WireMessage;
import io.mqroute.protocol.wire.KryoCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Serialize + deserialize one request without a reply address through the pooled Kryo codec (the
 * work Pekko's serializer does per remote message). Targets: at most 300 ns per round trip and 48
 * bytes per request.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WireRoundTripBench {
  private KryoCodec codec;
  private Request request;
  private byte[] encoded;

  @Setup
  public void setup() {
    codec = new KryoCodec(null, 4, 64 * 1024);
    request =
        new Request(1_234_567L, Op.READ, 7L, 734_003_200L, 4096, true, 17, 30_000_123_456L, null);
    encoded = codec.encode(request);
  }

  @Benchmark
  public WireMessage roundTrip() {
    return codec.decode(codec.encode(request));
  }

  @Benchmark
  public byte[] encode() {
    return codec.encode(request);
  }

  @Benchmark
  public WireMessage decode() {
    return codec.decode(encoded);
  }

  /** Prints the encoded size (bytes per request) for BENCHMARKS.md. */
  public static void main(String[] args) {
    WireRoundTripBench b = new WireRoundTripBench();
    b.setup();
    System.out.println("encoded request: " + b.encoded.length + " bytes");
  }
}
