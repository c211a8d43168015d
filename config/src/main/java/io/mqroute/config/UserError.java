package io.mqroute.config;

/**
 * A mistake in what the user gave us (a file, a flag, a value): printed as one line naming the
 * file, line or field, exit code 2, no stack trace.
 *
 * <p>The message is kept to one line of reasonable length whatever it quotes from the input: line
 * breaks are written as {@code \n}, and a message longer than {@link #MAX_LENGTH} keeps its start
 * (file, line, key) and its end (the variant, the overrides) around a note of what was left out (a
 * 40 KB key echoed in "unknown fio option" was a 40 KB line).
 */
public final class UserError extends RuntimeException {
  public static final int MAX_LENGTH = 1_000;
  private static final int HEAD = 700;
  private static final int TAIL = 250;

  public UserError(String message) {
    super(oneLine(message));
  }

  public UserError(String message, Throwable cause) {
    super(oneLine(message), cause);
  }

  static String oneLine(String message) {
    if (message == null) {
      return null;
    }
    String m = message.replace("\r", "\\r").replace("\n", "\\n");
    if (m.length() <= MAX_LENGTH) {
      return m;
    }
    return m.substring(0, HEAD)
        + " [... "
        + (m.length() - HEAD - TAIL)
        + " characters left out ...] "
        + m.substring(m.length() - TAIL);
  }
}
