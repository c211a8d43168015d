package io.mqroute.protocol;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Requests for one queue that cross the network together: a host router sends what it routed to a
 * queue since its last send as one message, so the per-message costs of the transport (envelope,
 * serializer call, reply address) are paid once per batch instead of once per request.
 *
 * <p><b>Fence.</b> A host router's batch to a device queue says when it left ({@code sentNanos}, on
 * the sender's clock) and how old its requests may be when the device starts them ({@code
 * fenceNanos}): the sender stops waiting for a silent queue after that long and ends its requests
 * as of unknown fate, so a device that was stopped, paused or cut off must not start them later.
 * The device relates the sender's clock to its own by the smallest difference between arrival and
 * {@code sentNanos} it has seen from that sender (the clocks' offset plus the shortest one-way
 * delay), so the two clocks need the same rate, not the same origin. {@code fenceNanos} 0: no fence
 * (clients, and tests), and then {@code sentNanos} is 0 too.
 *
 * @param requests 1..{@value #MAX_SIZE} requests, each without its own {@code replyTo}
 * @param replyTo where the queue answers with {@link CompletionBatch}es; null only in tests without
 *     a system
 * @param sentNanos when the sender put the batch on the wire, on its own clock (with a fence)
 * @param fenceNanos the oldest a request of this batch may be when it starts, >= 0; 0: no fence
 */
public record RequestBatch(
    List<Request> requests, ActorRef<CompletionBatch> replyTo, long sentNanos, long fenceNanos)
    implements WireMessage {
  /** The most requests in one batch: bounds what a peer can make a node allocate for one frame. */
  public static final int MAX_SIZE = 1024;

  /**
   * What one batch may hold on the wire, estimated as {@link #wireBytes} per element (62 KiB): the
   * batch, its reply address, its fence (two varlongs, at most 20 bytes) and the envelope stay
   * inside one 64 KiB message (mqroute.wire.max-message-size), also when requests carry data.
   */
  public static final int MAX_WIRE_BYTES = 62 * 1024;

  /**
   * An upper bound on one request's or completion's bytes on the wire without a reply address:
   * every field at its longest varint (57 bytes) rounded up, plus the data it carries.
   */
  public static int wireBytes(int dataBytes) {
    return 60 + dataBytes;
  }

  /** A batch without a fence. */
  public RequestBatch(List<Request> requests, ActorRef<CompletionBatch> replyTo) {
    this(requests, replyTo, 0, 0);
  }

  /** Whether this batch carries a fence. */
  public boolean fenced() {
    return fenceNanos > 0;
  }

  /**
   * {@code requests} (any number) as batches within {@link #MAX_SIZE} and {@link #MAX_WIRE_BYTES},
   * in order.
   */
  public static List<RequestBatch> split(
      List<Request> requests, ActorRef<CompletionBatch> replyTo) {
    return split(requests, replyTo, 0, 0);
  }

  /** The same, every batch with one fence ({@code fenceNanos} 0: none). */
  public static List<RequestBatch> split(
      List<Request> requests, ActorRef<CompletionBatch> replyTo, long sentNanos, long fenceNanos) {
    return BatchBudget.split(
        requests,
        Request::dataBytes,
        part -> new RequestBatch(part, replyTo, sentNanos, fenceNanos));
  }

  public RequestBatch {
    requests = List.copyOf(requests);
    if (requests.isEmpty() || requests.size() > MAX_SIZE) {
      throw new IllegalArgumentException(
          "a batch holds 1.." + MAX_SIZE + " requests, was " + requests.size());
    }
    for (Request r : requests) {
      if (r.replyTo() != null) {
        throw new IllegalArgumentException(
            "requests in a batch are answered to the batch's replyTo");
      }
    }
    BatchBudget.check(requests, Request::dataBytes);
    if (fenceNanos < 0 || (fenceNanos == 0 && sentNanos != 0)) {
      throw new IllegalArgumentException(
          "a fence is > 0 ns, and a batch without one has sentNanos 0; was "
              + fenceNanos
              + " / "
              + sentNanos);
    }
  }
}
