package io.mqroute.cli;

import picocli.CommandLine.Command;

@Command(name = "chaos", mixinStandardHelpOptions = true, description = "CPU-hotplug and fault-injection chaos runs with invariant checks.")
final class ChaosCommand extends NotBuiltYet {
  @Override
  int issue() {
    return 6;
  }
}
