package io.mqroute.metrics;

/**
 * An I/O direction as fio reports it: the {@code read}, {@code write} and {@code trim} objects of
 * the JSON output and the {@code READ:}/{@code WRITE:}/{@code TRIM:} lines of a run status group.
 * mqroute's workloads issue reads and writes; {@code TRIM} exists so reports keep fio's shape.
 */
public enum Direction {
  READ("read", "   READ"),
  WRITE("write", "  WRITE"),
  TRIM("trim", "   TRIM");

  private final String fioName;
  private final String groupLabel;

  Direction(String fioName, String groupLabel) {
    this.fioName = fioName;
    this.groupLabel = groupLabel;
  }

  /** fio's {@code io_ddir_name}: {@code "read"}, {@code "write"} or {@code "trim"}. */
  public String fioName() {
    return fioName;
  }

  /** The right-aligned label of a {@code Run status group} line, e.g. {@code " READ"}. */
  String groupLabel() {
    return groupLabel;
  }
}
