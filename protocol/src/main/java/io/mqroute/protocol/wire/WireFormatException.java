package io.mqroute.protocol.wire;

/**
 * Bytes that are not one well-formed, registered, size-limited mqroute message. It is about the
 * input, not the code: it carries no stack trace and no cause (Pekko logs it with the message it
 * drops, and a bad peer must not fill a node's log with traces), and its message is one line.
 */
public final class WireFormatException extends RuntimeException {
  public WireFormatException(String message) {
    super(firstLine(message), null, false, false);
  }

  /** {@code cause}'s own message is expected in {@code message}; the cause itself is dropped. */
  public WireFormatException(String message, Throwable cause) {
    this(message);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "malformed frame";
    }
    int nl = s.indexOf('\n');
    String line = nl < 0 ? s : s.substring(0, nl);
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }
}
