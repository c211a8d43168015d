package io.mqroute.actors.workload;

/** Placeholder until the fio parser lands. */
public class FioParseException extends RuntimeException {
  public FioParseException(String m) {
    super(m);
  }
}
