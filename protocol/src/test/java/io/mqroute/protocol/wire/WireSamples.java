package io.mqroute.protocol.wire;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.protocol.SweepMessage;
import io.mqroute.protocol.WireMessage;
import java.util.List;
import java.util.Map;

/** One realistic instance of every registered message, without actor references. */
final class WireSamples {
  private WireSamples() {}

  /** A 4 KiB random read 30 s into a run: ids, offsets and times of realistic magnitude. */
  static final Request REQUEST =
      new Request(1_234_567L, Op.READ, 7L, 734_003_200L, 4096, true, 17, 30_000_123_456L, null);

  static final Completion COMPLETION =
      new Completion(
          1_234_567L, Status.ENOTCONN, 30_000_123_456L, 30_000_163_456L, 30_000_170_001L, 5);

  /**
   * A host's batch with a fence: sent 30 s into its clock, 200 ms the oldest a request may start.
   */
  static final RequestBatch FENCED_BATCH =
      new RequestBatch(List.of(REQUEST), null, 30_000_123_456L, 200_000_000L);

  /** A run's first result part: 3 bytes of 2 parts. */
  static final SweepMessage.Part PART = new SweepMessage.Part(42, 0, 2, new byte[] {1, 2, 3}, null);

  private static final Map<Class<? extends WireMessage>, List<WireMessage>> REQUEST_PATH =
      Map.of(
          Request.class,
          List.of(
              REQUEST,
              new Request(0, Op.FORGET, 0, 0, 0, false, 0, 0, null),
              new Request(
                  Long.MAX_VALUE,
                  Op.WRITE,
                  -1,
                  Long.MAX_VALUE,
                  Integer.MAX_VALUE,
                  false,
                  255,
                  Long.MIN_VALUE,
                  null)),
          Completion.class,
          List.of(COMPLETION, new Completion(0, Status.OK, 0, 0, 0, -1)),
          RequestBatch.class,
          List.of(
              new RequestBatch(List.of(REQUEST), null),
              new RequestBatch(
                  List.of(REQUEST, new Request(0, Op.FORGET, 0, 0, 0, false, 0, 0, null)), null),
              FENCED_BATCH,
              new RequestBatch(List.of(REQUEST), null, Long.MIN_VALUE, Long.MAX_VALUE)),
          CompletionBatch.class,
          List.of(
              new CompletionBatch(List.of(COMPLETION)),
              new CompletionBatch(List.of(COMPLETION, new Completion(0, Status.OK, 0, 0, 0, -1)))),
          QueueDraining.class,
          List.of(new QueueDraining(null, 0), new QueueDraining(null, -4_611_686_018_427_387_904L)),
          HostAlive.class,
          List.of(new HostAlive(0), new HostAlive(RequestBatch.MAX_SIZE), new HostAlive(1 << 30)));

  private static final Map<Class<? extends WireMessage>, List<WireMessage>> SWEEP =
      Map.ofEntries(
          Map.entry(SweepMessage.Hello.class, List.of(new SweepMessage.Hello(null))),
          Map.entry(
              SweepMessage.Offer.class,
              List.of(new SweepMessage.Offer(null, 1), new SweepMessage.Offer(null, 1 << 20))),
          Map.entry(
              SweepMessage.Run.class,
              List.of(
                  new SweepMessage.Run(0, new byte[0], null),
                  new SweepMessage.Run(Long.MAX_VALUE, new byte[SweepMessage.MAX_CHUNK], null))),
          Map.entry(
              SweepMessage.Part.class,
              List.of(
                  PART, new SweepMessage.Part(7, 4, 5, new byte[SweepMessage.MAX_CHUNK], null))),
          Map.entry(
              SweepMessage.Ack.class,
              List.of(new SweepMessage.Ack(0, 0), new SweepMessage.Ack(Long.MAX_VALUE, 1 << 20))),
          Map.entry(
              SweepMessage.Failed.class,
              List.of(
                  new SweepMessage.Failed(3, "", null),
                  new SweepMessage.Failed(3, "run 3: an invariant broke: ü", null))));

  static final Map<Class<? extends WireMessage>, List<WireMessage>> BY_CLASS = both();

  private static Map<Class<? extends WireMessage>, List<WireMessage>> both() {
    Map<Class<? extends WireMessage>, List<WireMessage>> all =
        new java.util.HashMap<>(REQUEST_PATH);
    all.putAll(SWEEP);
    return Map.copyOf(all);
  }
}
