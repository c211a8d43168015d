package io.mqroute.cli;

import picocli.CommandLine.Command;

@Command(name = "run", mixinStandardHelpOptions = true, description = "Run a policy experiment (HOCON) in deterministic virtual time.")
final class RunCommand extends NotBuiltYet {
  @Override
  int issue() {
    return 4;
  }
}
