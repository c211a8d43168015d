package io.mqroute.protocol;

import java.util.List;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Requests for one queue that cross the network together: a host router sends what it routed to a
 * queue since its last send as one message, so the per-message costs of the transport (envelope,
 * serializer call, reply address) are paid once per batch instead of once per request.
 *
 * @param requests 1..{@value #MAX_SIZE} requests, each without its own {@code replyTo}
 * @param replyTo where the queue answers with {@link CompletionBatch}es; null only in tests without
 *     a system
 */
public record RequestBatch(List<Request> requests, ActorRef<CompletionBatch> replyTo)
    implements WireMessage {
  /** The most requests in one batch: bounds what a peer can make a node allocate for one frame. */
  public static final int MAX_SIZE = 1024;

  /**
   * What one batch may hold on the wire, estimated as {@link #wireBytes} per element (62 KiB): the
   * batch, its reply address and the envelope stay inside one 64 KiB message
   * (mqroute.wire.max-message-size), also when requests carry data.
   */
  public static final int MAX_WIRE_BYTES = 62 * 1024;

  /**
   * An upper bound on one request's or completion's bytes on the wire without a reply address:
   * every field at its longest varint (57 bytes) rounded up, plus the data it carries.
   */
  public static int wireBytes(int dataBytes) {
    return 60 + dataBytes;
  }

  /**
   * {@code requests} (any number) as batches within {@link #MAX_SIZE} and {@link #MAX_WIRE_BYTES},
   * in order.
   */
  public static List<RequestBatch> split(
      List<Request> requests, ActorRef<CompletionBatch> replyTo) {
    return BatchBudget.split(requests, Request::dataBytes, part -> new RequestBatch(part, replyTo));
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
  }
}
