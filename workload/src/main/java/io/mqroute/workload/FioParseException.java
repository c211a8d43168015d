package io.mqroute.workload;

/**
 * A job file (or fio command line) that cannot be used, with where and why.
 *
 * <p>{@link #getMessage()} is one line in compiler style: {@code file.fio:12: unknown fio option
 * "foo"} for a file, {@code file.fio: no jobs defined} when no line is to blame, and {@code command
 * line argument 3: ...} for the command-line form.
 */
public final class FioParseException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  /** The {@link #source()} of errors in the command-line form. */
  public static final String COMMAND_LINE = "command line";

  private final String source;
  private final int line;
  private final String detail;

  /**
   * @param source the file name as given, or {@link #COMMAND_LINE}
   * @param line 1-based line (argument index for the command line), 0 when no line is to blame
   * @param detail what is wrong, without the location
   */
  public FioParseException(String source, int line, String detail) {
    super(format(source, line, detail));
    this.source = source;
    this.line = line;
    this.detail = detail;
  }

  private static String format(String source, int line, String detail) {
    if (line <= 0) {
      return source + ": " + detail;
    }
    if (COMMAND_LINE.equals(source)) {
      return "command line argument " + line + ": " + detail;
    }
    return source + ":" + line + ": " + detail;
  }

  /** The file name as the caller gave it, or {@link #COMMAND_LINE}. */
  public String source() {
    return source;
  }

  /** 1-based line or argument index; 0 when the whole input is at fault. */
  public int line() {
    return line;
  }

  /** The message without the location. */
  public String detail() {
    return detail;
  }
}
