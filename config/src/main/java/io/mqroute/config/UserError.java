package io.mqroute.config;

/**
 * A mistake in what the user gave us (a file, a flag, a value): printed as one line naming the
 * file, line or field, exit code 2, no stack trace.
 */
public final class UserError extends RuntimeException {
  public UserError(String message) {
    super(message);
  }

  public UserError(String message, Throwable cause) {
    super(message, cause);
  }
}
