package io.mqroute.protocol;

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
 */
public record Completion(
    long id, Status status, long submitNanos, long dispatchNanos, long completeNanos, int queue)
    implements WireMessage {

  public Completion {
    if (status == null) {
      throw new IllegalArgumentException("status must not be null");
    }
  }

  public long latencyNanos() {
    return completeNanos - submitNanos;
  }
}
