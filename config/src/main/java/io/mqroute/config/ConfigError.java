package io.mqroute.config;

/** A mistake in an experiment or machine file; the message names file, line and key in one line. */
public final class ConfigError extends RuntimeException {
  public ConfigError(String message) {
    super(message);
  }

  public ConfigError(String message, Throwable cause) {
    super(message, cause);
  }
}
