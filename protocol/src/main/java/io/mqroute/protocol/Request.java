package io.mqroute.protocol;

import java.util.Arrays;
import java.util.Objects;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * One file-system request on its way from a submitting CPU to a queue (a {@code struct fuse_req}).
 *
 * @param id unique per run (the kernel's {@code unique}); completions are matched by it
 * @param op what the request does
 * @param fileId which file (an id, never a path: a file backend maps it under its root)
 * @param offset byte offset in the file
 * @param length bytes to transfer
 * @param background true for async requests ({@code FR_BACKGROUND}: io_uring/libaio, readahead,
 *     writeback)
 * @param cpu the CPU the submitting task ran on ({@code task_cpu(current)})
 * @param submitNanos when the application submitted it, on the run's clock
 * @param replyTo where the completion goes when it must cross an actor boundary; null when the
 *     receiver already knows (inside one machine model)
 * @param carriesData the request moves real bytes: a write's {@code data} travels with it, a read's
 *     bytes come back in its {@link Completion#data()}. False for the model's requests and for
 *     length-only load (a write stores zeros, a read's bytes are dropped at the device).
 * @param data a write's bytes ({@code length} of them) when {@code carriesData}; null otherwise
 */
public record Request(
    long id,
    Op op,
    long fileId,
    long offset,
    int length,
    boolean background,
    int cpu,
    long submitNanos,
    ActorRef<Completion> replyTo,
    boolean carriesData,
    byte[] data)
    implements WireMessage {

  /**
   * The most bytes one data-carrying request moves (32 KiB): a request and its completion each fit
   * one wire message with room for the batch around it.
   */
  public static final int MAX_DATA = 32 * 1024;

  /** A length-only request (the model's, and load without verification). */
  public Request(
      long id,
      Op op,
      long fileId,
      long offset,
      int length,
      boolean background,
      int cpu,
      long submitNanos,
      ActorRef<Completion> replyTo) {
    this(id, op, fileId, offset, length, background, cpu, submitNanos, replyTo, false, null);
  }

  public Request {
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0, was " + offset);
    }
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0, was " + length);
    }
    if (carriesData) {
      if (length > MAX_DATA) {
        throw new IllegalArgumentException(
            "a request that carries data moves at most " + MAX_DATA + " bytes, was " + length);
      }
      if (op == Op.WRITE ? data == null || data.length != length : data != null) {
        throw new IllegalArgumentException(
            op == Op.WRITE
                ? "a data-carrying write needs exactly length (" + length + ") bytes of data"
                : "only a write carries data to the device");
      }
    } else if (data != null) {
      throw new IllegalArgumentException("data on a length-only request");
    }
  }

  /** The bytes a data-carrying write moves to the device, 0 otherwise. */
  public int dataBytes() {
    return data == null ? 0 : data.length;
  }

  /** Equal fields, and equal bytes of data (a record compares arrays by identity). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Request r
        && id == r.id
        && op == r.op
        && fileId == r.fileId
        && offset == r.offset
        && length == r.length
        && background == r.background
        && cpu == r.cpu
        && submitNanos == r.submitNanos
        && Objects.equals(replyTo, r.replyTo)
        && carriesData == r.carriesData
        && Arrays.equals(data, r.data);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + Long.hashCode(offset);
  }

  @Override
  public String toString() {
    return "Request[id=%d, op=%s, fileId=%d, offset=%d, length=%d, background=%b, cpu=%d, submitNanos=%d, replyTo=%s%s]"
        .formatted(
            id,
            op,
            fileId,
            offset,
            length,
            background,
            cpu,
            submitNanos,
            replyTo,
            carriesData ? ", carriesData" : "");
  }

  /**
   * The same request under another id, from another submitting CPU, answered to {@code ref}: as a
   * node hands a request on under its own ids.
   */
  public Request relabelled(long newId, int newCpu, ActorRef<Completion> ref) {
    return new Request(
        newId, op, fileId, offset, length, background, newCpu, submitNanos, ref, carriesData, data);
  }

  /** The same request, answered to {@code ref}. */
  public Request withReplyTo(ActorRef<Completion> ref) {
    return relabelled(id, cpu, ref);
  }
}
