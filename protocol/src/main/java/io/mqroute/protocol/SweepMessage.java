package io.mqroute.protocol;

import java.util.Arrays;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * What a sweep client ({@code mqroute run --cluster}) and its workers ({@code mqroute node --role
 * worker}) tell each other. The client offers itself ({@link Hello}); a worker answers with how
 * many runs it takes at once ({@link Offer}: its cores); the client never has more runs ({@link
 * Run}) in flight at a worker than that. A worker sends each finished run back in {@link Part}s,
 * one at a time, each acknowledged ({@link Ack}) before the next (a result is up to {@value
 * #MAX_RESULT_BYTES} bytes, a frame at most 64 KiB), or says why it could not run it ({@link
 * Failed}).
 *
 * <p>The payloads are opaque here: the order (the experiment's files and which run) and the result
 * are encoded by the modules that run experiments.
 */
public sealed interface SweepMessage extends WireMessage {
  /** The largest payload of one {@link Run} or {@link Part}. */
  int MAX_CHUNK = 48 << 10;

  /** The largest result a client reassembles from parts. */
  int MAX_RESULT_BYTES = 256 << 20;

  /** A client with runs to hand out, to a worker it found in the Receptionist. */
  record Hello(ActorRef<SweepMessage> client) implements SweepMessage {}

  /**
   * A worker's answer to {@link Hello}.
   *
   * @param slots runs it takes at once (its cores), at least 1
   */
  record Offer(ActorRef<SweepMessage> worker, int slots) implements SweepMessage {
    public Offer {
      if (slots < 1) {
        throw new IllegalArgumentException("slots must be >= 1, was " + slots);
      }
    }
  }

  /**
   * One run to do.
   *
   * @param runId the client's number for it (the same when it is sent again elsewhere)
   * @param order what to run, at most {@link #MAX_CHUNK} bytes
   */
  record Run(long runId, byte[] order, ActorRef<SweepMessage> client) implements SweepMessage {
    public Run {
      if (order.length > MAX_CHUNK) {
        throw new IllegalArgumentException("an order of " + order.length + " bytes");
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Run r
          && r.runId == runId
          && Arrays.equals(r.order, order)
          && java.util.Objects.equals(r.client, client);
    }

    @Override
    public int hashCode() {
      return Long.hashCode(runId) * 31 + Arrays.hashCode(order);
    }

    @Override
    public String toString() {
      return "Run[" + runId + ", " + order.length + " bytes]";
    }
  }

  /**
   * Part {@code index} of {@code count} of a finished run's result.
   *
   * @param bytes at most {@link #MAX_CHUNK}
   */
  record Part(long runId, int index, int count, byte[] bytes, ActorRef<SweepMessage> worker)
      implements SweepMessage {
    public Part {
      if (bytes.length > MAX_CHUNK) {
        throw new IllegalArgumentException("a part of " + bytes.length + " bytes");
      }
      if (count < 1 || index < 0 || index >= count) {
        throw new IllegalArgumentException("part " + index + " of " + count);
      }
      if ((long) count * MAX_CHUNK > MAX_RESULT_BYTES + (long) MAX_CHUNK) {
        throw new IllegalArgumentException(count + " parts");
      }
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Part p
          && p.runId == runId
          && p.index == index
          && p.count == count
          && Arrays.equals(p.bytes, bytes)
          && java.util.Objects.equals(p.worker, worker);
    }

    @Override
    public int hashCode() {
      return (Long.hashCode(runId) * 31 + index) * 31 + Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
      return "Part[" + runId + ", " + index + "/" + count + ", " + bytes.length + " bytes]";
    }
  }

  /** The client has part {@code index} of run {@code runId}: the worker sends the next. */
  record Ack(long runId, int index) implements SweepMessage {}

  /**
   * The worker could not run it (the order did not parse, the run threw or ended without a result).
   *
   * @param reason one line
   */
  record Failed(long runId, String reason, ActorRef<SweepMessage> worker) implements SweepMessage {}
}
