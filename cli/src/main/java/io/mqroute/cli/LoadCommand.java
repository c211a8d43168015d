package io.mqroute.cli;

import picocli.CommandLine.Command;

@Command(name = "load", mixinStandardHelpOptions = true, description = "Join a cluster as a client and run an fio job against it in real time.")
final class LoadCommand extends NotBuiltYet {
  @Override
  int issue() {
    return 7;
  }
}
