package io.mqroute.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.protocol.WireMessage;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class KryoCodecTest {
  private static final int MAX = 64 * 1024;
  private final KryoCodec codec = new KryoCodec(null, 4, MAX);

  @Test
  void everyRegisteredMessageHasSamplesAndRoundTrips() {
    for (Class<? extends WireMessage> c : WireRegistry.messageClasses()) {
      List<WireMessage> samples = WireSamples.BY_CLASS.get(c);
      assertThat(samples).as("samples for " + c.getSimpleName()).isNotEmpty();
      for (WireMessage m : samples) {
        assertThat(codec.decode(codec.encode(m))).isEqualTo(m);
      }
    }
  }

  /**
   * The wire format of every message is frozen: nodes of different builds must understand each
   * other. If this fails, the format changed; register a new class with a new id instead of
   * changing an old one.
   */
  @Test
  void goldenBytes() {
    assertThat(hex(codec.encode(WireSamples.REQUEST)))
        .isEqualTo("6687ad4b000e808080de028020012280b9acc2df01");
    assertThat(hex(codec.encode(WireSamples.COMPLETION)))
        .isEqualTo("6787ad4b0880b9acc2df0180f104a2660a");
  }

  /** A sweep's result part (issue #20): id, run, index, count, length, bytes, no worker ref. */
  @Test
  void sweepPartGoldenBytes() {
    assertThat(hex(codec.encode(WireSamples.PART)))
        .isEqualTo("6f" + "2a" + "00" + "02" + "03" + "010203" + "00");
  }

  @Test
  void batchGoldenBytes() {
    assertThat(hex(codec.encode(WireSamples.BY_CLASS.get(RequestBatch.class).get(0))))
        .isEqualTo("6801" + "87ad4b000e808080de028020012280b9acc2df01" + "00");
    assertThat(hex(codec.encode(WireSamples.BY_CLASS.get(CompletionBatch.class).get(0))))
        .isEqualTo("6901" + "87ad4b0880b9acc2df0180f104a2660a");
  }

  /**
   * A fence is new (issue #15): flag bit 1, then sentNanos (zigzag varlong) and fenceNanos
   * (varlong) after the reply address. A batch without one keeps the bytes above.
   */
  @Test
  void fencedBatchGoldenBytes() {
    assertThat(hex(codec.encode(WireSamples.FENCED_BATCH)))
        .isEqualTo(
            "6801"
                + "87ad4b000e808080de028020012280b9acc2df01"
                + "02"
                + "80b9acc2df01"
                + "8084af5f");
  }

  @Test
  void aFenceOfZeroOrUnknownBatchFlagsAreRefused() {
    byte[] b = codec.encode(WireSamples.FENCED_BATCH);
    // the fence is the last varlong: 200 ms takes 4 bytes; make it 0 (and drop the rest)
    byte[] zero = Arrays.copyOf(b, b.length - 3);
    zero[zero.length - 1] = 0;
    assertThatThrownBy(() -> codec.decode(zero))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("fence 0");
    byte[] flags = codec.encode(WireSamples.BY_CLASS.get(RequestBatch.class).get(0));
    flags[flags.length - 1] = 4;
    assertThatThrownBy(() -> codec.decode(flags))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("invalid batch flags 4");
    assertThatThrownBy(() -> new RequestBatch(List.of(WireSamples.REQUEST), null, 5, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RequestBatch(List.of(WireSamples.REQUEST), null, 0, -1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void queueDrainingKeepsItsFormatAndNestingIsRefused() {
    // the bytes RecordSerializer wrote: nodeUid (zigzag varlong), then the ref's class tag (0:
    // null)
    assertThat(hex(codec.encode(new QueueDraining(null, 0)))).isEqualTo("6a0000");
    assertThat(hex(codec.encode(new QueueDraining(null, -4_611_686_018_427_387_904L))))
        .isEqualTo("6affffffffffffffff7f00");
    // QueueDraining nested in QueueDraining's queue field, 30000 deep: it used to overflow the
    // stack
    int depth = 30_000;
    byte[] nested = new byte[depth * 2 + 2];
    for (int d = 0; d < depth; d++) {
      nested[2 * d] = (byte) (104 + 2);
      nested[2 * d + 1] = 0;
    }
    byte[] frame = Arrays.copyOf(nested, depth * 2 + 1);
    // the old reading: uid 0 first, then the class tag of QueueDraining (106) where a ref (22) or
    // null belongs
    byte[] shallow = {(byte) (104 + 2), 0, (byte) (104 + 2), 0, 0};
    assertThatThrownBy(() -> codec.decode(shallow))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("invalid queue ref tag 106");
    assertThatThrownBy(() -> codec.decode(frame)).isInstanceOf(WireFormatException.class);
    assertThat(codec.decode(codec.encode(WireSamples.COMPLETION)))
        .isEqualTo(WireSamples.COMPLETION);
  }

  @Test
  void hostAliveIsOneVarintAndANegativeCountIsRefused() {
    assertThat(hex(codec.encode(new HostAlive(3)))).isEqualTo("6b03");
    assertThat(codec.decode(codec.encode(new HostAlive(1 << 30))))
        .isEqualTo(new HostAlive(1 << 30));
    // five varint bytes that read as -1
    byte[] negative = {(byte) (105 + 2), (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x0f};
    assertThatThrownBy(() -> codec.decode(negative))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("invalid held count -1");
  }

  /** Misbehaves like a decoder recursing without bound. */
  static final class Overflowing extends Serializer<Overflowing> {
    @Override
    public void write(Kryo kryo, Output out, Overflowing o) {}

    @Override
    public Overflowing read(Kryo kryo, Input in, Class<? extends Overflowing> type) {
      throw new StackOverflowError();
    }
  }

  @Test
  void anErrorWhileDecodingIsAMalformedFrame() {
    KryoCodec c =
        new KryoCodec(null, 1, MAX, k -> k.register(Overflowing.class, new Overflowing(), 900));
    assertThatThrownBy(
            () -> c.decode(new byte[] {(byte) (900 + 2 & 0x7f | 0x80), (byte) ((900 + 2) >>> 7)}))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("StackOverflowError")
        // a bad peer's frame: no cause and no stack trace for Pekko to log with it
        .hasNoCause()
        .satisfies(e -> assertThat(e.getStackTrace()).isEmpty());
    // and the codec goes on decoding
    assertThat(c.decode(c.encode(WireSamples.COMPLETION))).isEqualTo(WireSamples.COMPLETION);
  }

  @Test
  void aBatchCountBeyondTheLimitIsRejectedBeforeAllocating() {
    // RequestBatch claiming 2^31 - 1 requests, and one claiming none
    byte[] huge = {(byte) (102 + 2), (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07};
    assertThatThrownBy(() -> codec.decode(huge))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("batch count");
    byte[] empty = {(byte) (103 + 2), 0};
    assertThatThrownBy(() -> codec.decode(empty))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("batch count 0");
  }

  @Test
  void theLargestBatchesOfTheLargestElementsFitInOneFrame() {
    // every varint at its longest: a full batch must still fit in max-message-size (64 KiB)
    var big =
        new Request(
            Long.MIN_VALUE,
            Op.WRITE,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            Integer.MAX_VALUE,
            true,
            Integer.MIN_VALUE,
            Long.MIN_VALUE,
            null);
    var requests = new RequestBatch(Collections.nCopies(RequestBatch.MAX_SIZE, big), null);
    assertThat(codec.decode(codec.encode(requests))).isEqualTo(requests);
    var fenced =
        new RequestBatch(
            Collections.nCopies(RequestBatch.MAX_SIZE, big), null, Long.MIN_VALUE, Long.MAX_VALUE);
    assertThat(codec.decode(codec.encode(fenced))).isEqualTo(fenced);
    var done =
        new Completion(
            Long.MIN_VALUE,
            Status.ENOTCONN,
            Long.MIN_VALUE,
            Long.MAX_VALUE,
            Long.MIN_VALUE,
            Integer.MIN_VALUE);
    var completions = new CompletionBatch(Collections.nCopies(RequestBatch.MAX_SIZE, done));
    assertThat(codec.decode(codec.encode(completions))).isEqualTo(completions);
  }

  @Test
  void aRequestInsideABatchMustNotCarryItsOwnReplyAddress() {
    byte[] b = codec.encode(WireSamples.BY_CLASS.get(RequestBatch.class).get(0));
    // the request's flags byte: bit 1 would announce a reply address (and the bytes after it are
    // not one)
    // class id and count (2 bytes), then id 3, op 1, fileId 1, offset 5, length 2 bytes (see
    // batchGoldenBytes)
    int flagsAt = 2 + 12;
    assertThat(b[flagsAt]).isEqualTo((byte) 1);
    b[flagsAt] = 3;
    assertThatThrownBy(() -> codec.decode(b)).isInstanceOf(WireFormatException.class);
  }

  @Test
  void aRequestFitsIn48Bytes() {
    assertThat(codec.encode(WireSamples.REQUEST).length).isLessThanOrEqualTo(48);
  }

  @Test
  void writingAnUnregisteredClassFails() {
    record Unregistered(int x) implements WireMessage {}
    assertThatThrownBy(() -> codec.encode(new Unregistered(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Class is not registered");
  }

  @Test
  void readingAnUnknownIdFails() {
    byte[] b = codec.encode(WireSamples.COMPLETION);
    b[0] = (byte) (99 + 2); // class ids are written as a varint of id + 2
    assertThatThrownBy(() -> codec.decode(b))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("unregistered class ID: 99");
  }

  @Test
  void aTruncatedFrameFailsAtEveryLength() {
    byte[] full = codec.encode(WireSamples.COMPLETION);
    for (int n = 0; n < full.length; n++) {
      byte[] cut = Arrays.copyOf(full, n);
      assertThatThrownBy(() -> codec.decode(cut))
          .as("cut at " + n)
          .isInstanceOf(WireFormatException.class);
    }
  }

  @Test
  void trailingBytesFail() {
    byte[] full = codec.encode(WireSamples.COMPLETION);
    byte[] longer = Arrays.copyOf(full, full.length + 1);
    assertThatThrownBy(() -> codec.decode(longer)).hasMessageContaining("trailing");
  }

  /**
   * The node link reads frames into one reused array and encodes into the codec's own buffer: a
   * frame in the middle of an array decodes alone (not past its end, not from before its start),
   * and the sink sees exactly the bytes {@link KryoCodec#encode(WireMessage)} returns.
   */
  @Test
  void aFrameInsideALargerArrayDecodesAndTheSinkSeesTheEncodedBytes() {
    for (WireMessage m :
        List.of(WireSamples.COMPLETION, WireSamples.BY_CLASS.get(CompletionBatch.class).get(0))) {
      byte[] full = codec.encode(m);
      byte[] viaSink = codec.encode(m, (bytes, length) -> Arrays.copyOf(bytes, length));
      assertThat(viaSink).isEqualTo(full);
      byte[] scratch = new byte[full.length + 20];
      Arrays.fill(scratch, (byte) 0x7f);
      System.arraycopy(full, 0, scratch, 7, full.length);
      assertThat(codec.decode(scratch, 7, full.length)).isEqualTo(m);
      assertThatThrownBy(() -> codec.decode(scratch, 7, full.length + 1))
          .hasMessageContaining("trailing");
      assertThatThrownBy(() -> codec.decode(scratch, 7, full.length - 1))
          .isInstanceOf(WireFormatException.class);
      assertThatThrownBy(() -> codec.decode(scratch, 6, full.length))
          .isInstanceOf(WireFormatException.class);
    }
  }

  @Test
  void anOversizedFrameIsRejectedBeforeDecoding() {
    assertThatThrownBy(() -> codec.decode(new byte[MAX + 1]))
        .hasMessageContaining("exceeds max-message-size");
  }

  @Test
  void aForgedStringLengthIsRejectedWithoutAllocating() {
    // A Request whose reply address claims a 2 GiB actor path (layout in RequestSerializer).
    byte[] forged = {
      (byte) (100 + 2),
      0,
      0,
      0,
      0,
      0, // Request: id, op READ, fileId, offset, length
      2,
      0,
      0, // flags: a reply address follows; cpu, submitNanos
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      (byte) 0xff,
      0x07, // its path length: varint 2^31 - 1
      'a',
      'b',
      'c'
    };
    KryoCodec withRefs =
        new KryoCodec(() -> null, 1, MAX); // never reached: the length check comes first
    assertThatThrownBy(() -> withRefs.decode(forged))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("exceeds the");
  }

  @Test
  void anInvalidEnumOrdinalFails() {
    byte[] b = codec.encode(WireSamples.COMPLETION);
    int statusAt =
        firstDifference(
            b,
            codec.encode(
                new Completion(
                    WireSamples.COMPLETION.id(),
                    Status.OK,
                    WireSamples.COMPLETION.submitNanos(),
                    WireSamples.COMPLETION.dispatchNanos(),
                    WireSamples.COMPLETION.completeNanos(),
                    WireSamples.COMPLETION.queue())));
    b[statusAt] = (byte) (Status.values().length + 5);
    assertThatThrownBy(() -> codec.decode(b)).isInstanceOf(WireFormatException.class);
  }

  @Test
  void anEncodingOverTheLimitFails() {
    KryoCodec tiny = new KryoCodec(null, 1, 16);
    assertThatThrownBy(() -> tiny.encode(WireSamples.COMPLETION))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("exceeds max-message-size 16");
  }

  /**
   * Random garbage never hangs, never runs out of memory and is rejected — unless it happens to
   * decode to a message that passes every check (valid class, enum ordinals, record invariants,
   * exact length), which is then no garbage at all. Varints may be non-canonical, so such a frame
   * need not re-encode to the same bytes.
   */
  @Test
  void tenThousandRandomFramesAreRejectedOrCanonical() {
    SplittableRandom rnd = new SplittableRandom(20261130L);
    int rejected = 0;
    for (int i = 0; i < 10_000; i++) {
      byte[] b = new byte[rnd.nextInt(0, 96)];
      for (int j = 0; j < b.length; j++) {
        b[j] = (byte) rnd.nextInt(256);
      }
      if (i % 2 == 0 && b.length > 0) {
        b[0] =
            (byte)
                (100
                    + 2
                    + rnd.nextInt(WireRegistry.messageClasses().size())); // aim at a real class
      }
      try {
        WireMessage m = codec.decode(b);
        assertThat(codec.decode(codec.encode(m)))
            .as("an accepted frame is a valid message")
            .isEqualTo(m);
      } catch (WireFormatException e) {
        rejected++;
      }
    }
    assertThat(rejected).isGreaterThan(9_900);
  }

  private static int firstDifference(byte[] a, byte[] b) {
    int i = Arrays.mismatch(a, b);
    assertThat(i).isNotNegative();
    return i;
  }

  private static Request dataWrite(long id, int length) {
    byte[] data = new byte[length];
    new SplittableRandom(id).nextBytes(data);
    return new Request(
        id,
        Op.WRITE,
        Long.MIN_VALUE,
        Long.MAX_VALUE,
        length,
        true,
        -1,
        Long.MIN_VALUE,
        null,
        true,
        data);
  }

  @Test
  void dataTravelsWithAWriteAndBackWithARead() {
    Request write = dataWrite(9, 4096);
    Request decoded = (Request) codec.decode(codec.encode(write));
    assertThat(decoded).isEqualTo(write);
    assertThat(decoded.data()).isEqualTo(write.data()).isNotSameAs(write.data());
    Request read = new Request(10, Op.READ, 3, 0, 4096, false, 1, 7, null, true, null);
    assertThat(codec.decode(codec.encode(read))).isEqualTo(read);
    Completion back = new Completion(10, Status.OK, 1, 2, 3, 0, write.data());
    assertThat(codec.decode(codec.encode(back))).isEqualTo(back);
    // without data a completion keeps its old bytes (goldenBytes): only the new flag is new
    assertThat(codec.encode(new Completion(10, Status.OK, 1, 2, 3, 0)).length)
        .isEqualTo(codec.encode(back).length - 4096 - 2);
  }

  @Test
  void splitBatchesOfTheLargestDataFitInOneFrameEach() {
    List<Request> writes = new java.util.ArrayList<>();
    List<Completion> reads = new java.util.ArrayList<>();
    for (int i = 0; i < 40; i++) {
      Request w = dataWrite(Long.MIN_VALUE + i, Request.MAX_DATA - i);
      writes.add(w);
      reads.add(
          new Completion(
              Long.MIN_VALUE,
              Status.OK,
              Long.MIN_VALUE,
              Long.MAX_VALUE,
              Long.MIN_VALUE,
              Integer.MIN_VALUE,
              w.data()));
    }
    List<RequestBatch> rb = RequestBatch.split(writes, null);
    List<CompletionBatch> cb = CompletionBatch.split(reads);
    assertThat(rb).hasSizeGreaterThan(1);
    assertThat(rb.stream().mapToInt(b -> b.requests().size()).sum()).isEqualTo(40);
    assertThat(cb.stream().mapToInt(b -> b.completions().size()).sum()).isEqualTo(40);
    for (RequestBatch b : rb) {
      assertThat(codec.decode(codec.encode(b))).isEqualTo(b); // encode fails over MAX bytes
    }
    for (CompletionBatch b : cb) {
      assertThat(codec.decode(codec.encode(b))).isEqualTo(b);
    }
    // length-only requests still go 1,024 to a batch
    List<Request> small = Collections.nCopies(2500, WireSamples.REQUEST);
    assertThat(RequestBatch.split(small, null))
        .extracting(b -> b.requests().size())
        .containsExactly(1024, 1024, 452);
  }

  @Test
  void aForgedDataLengthIsRejectedWithoutAllocating() {
    // a write that claims 32 KiB of data with 4 bytes left in the frame
    Request w = dataWrite(1, Request.MAX_DATA);
    byte[] full = codec.encode(w);
    byte[] cut = Arrays.copyOf(full, full.length - Request.MAX_DATA + 4);
    assertThatThrownBy(() -> codec.decode(cut))
        .isInstanceOf(WireFormatException.class)
        .hasMessageContaining("more than the frame holds");
    // a completion that announces data beyond MAX_DATA
    Completion c = new Completion(1, Status.OK, 1, 2, 3, 0, new byte[8]);
    byte[] b = codec.encode(c);
    // the data length varint sits 8 bytes before the end: make it 2^21 (3-byte varint)
    byte[] forged = Arrays.copyOf(b, b.length + 2);
    System.arraycopy(new byte[] {(byte) 0x80, (byte) 0x80, 0x01}, 0, forged, b.length - 9, 3);
    assertThatThrownBy(() -> codec.decode(forged)).isInstanceOf(WireFormatException.class);
    assertThatThrownBy(
            () -> new Request(1, Op.WRITE, 0, 0, 8, false, 0, 0, null, true, new byte[7]))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
