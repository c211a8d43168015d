package io.mqroute.cli;

import picocli.CommandLine.Command;

@Command(name = "node", mixinStandardHelpOptions = true, description = "Run a Pekko Cluster node (host or device role) in real time.")
final class NodeCommand extends NotBuiltYet {
  @Override
  int issue() {
    return 7;
  }
}
