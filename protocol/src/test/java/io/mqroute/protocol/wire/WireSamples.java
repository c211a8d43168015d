package io.mqroute.protocol.wire;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
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

  static final Map<Class<? extends WireMessage>, List<WireMessage>> BY_CLASS =
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
}
