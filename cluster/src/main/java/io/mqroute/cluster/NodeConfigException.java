package io.mqroute.cluster;

/**
 * A bad flag or configuration value of a cluster node, said in one line (the CLI prints it, exit
 * code 2).
 */
public final class NodeConfigException extends IllegalArgumentException {
  public NodeConfigException(String message) {
    super(message);
  }
}
