package io.mqroute.protocol;

import java.util.Arrays;

/**
 * The end of one request: exactly one per accepted request ({@code fuse_request_end}).
 *
 * @param id the request's id
 * @param status OK or the errno the request ended with
 * @param submitNanos when the application submitted it
 * @param dispatchNanos when it was handed to the device side (put on a ring slot); equal to {@code
 *     completeNanos} for requests that failed before dispatch
 * @param completeNanos when the completion was handled
 * @param queue the queue that served it, or -1 when it never reached one
 * @param data the bytes a data-carrying read returned ({@link Request#carriesData()}), only with
 *     status OK; null otherwise
 */
public record Completion(
    long id,
    Status status,
    long submitNanos,
    long dispatchNanos,
    long completeNanos,
    int queue,
    byte[] data)
    implements WireMessage {

  public Completion {
    if (status == null) {
      throw new IllegalArgumentException("status must not be null");
    }
    if (data != null && (status != Status.OK || data.length > Request.MAX_DATA)) {
      throw new IllegalArgumentException(
          "a completion carries at most " + Request.MAX_DATA + " bytes, and only with OK");
    }
  }

  /** A completion without data. */
  public Completion(
      long id, Status status, long submitNanos, long dispatchNanos, long completeNanos, int queue) {
    this(id, status, submitNanos, dispatchNanos, completeNanos, queue, null);
  }

  /** Equal fields, and equal bytes of data (a record compares arrays by identity). */
  @Override
  public boolean equals(Object o) {
    return o instanceof Completion c
        && id == c.id
        && status == c.status
        && submitNanos == c.submitNanos
        && dispatchNanos == c.dispatchNanos
        && completeNanos == c.completeNanos
        && queue == c.queue
        && Arrays.equals(data, c.data);
  }

  @Override
  public int hashCode() {
    return Long.hashCode(id) * 31 + status.hashCode();
  }

  @Override
  public String toString() {
    return "Completion[id=%d, status=%s, submitNanos=%d, dispatchNanos=%d, completeNanos=%d, queue=%d%s]"
        .formatted(
            id,
            status,
            submitNanos,
            dispatchNanos,
            completeNanos,
            queue,
            data == null ? "" : ", data=" + data.length + " bytes");
  }

  /** The bytes of data it carries back, 0 when none. */
  public int dataBytes() {
    return data == null ? 0 : data.length;
  }

  public long latencyNanos() {
    return completeNanos - submitNanos;
  }
}
