package io.mqroute.cli;

import picocli.CommandLine.Command;

@Command(name = "bench", mixinStandardHelpOptions = true, description = "Simulator throughput and memory benchmarks.")
final class BenchCommand extends NotBuiltYet {
  @Override
  int issue() {
    return 4;
  }
}
