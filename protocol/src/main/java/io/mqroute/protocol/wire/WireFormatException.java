package io.mqroute.protocol.wire;

/** Bytes that are not one well-formed, registered, size-limited mqroute message. */
public final class WireFormatException extends RuntimeException {
  public WireFormatException(String message) {
    super(message);
  }

  public WireFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
