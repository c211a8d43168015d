package io.mqroute.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine;

/** Base for commands whose issue has not landed: they say so and exit 2 instead of pretending. */
abstract class NotBuiltYet implements Callable<Integer> {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /** The issue that builds this command. */
  abstract int issue();

  @Override
  public Integer call() {
    spec.commandLine()
        .getErr()
        .println("mqroute " + spec.name() + ": not built yet (issue #" + issue() + ")");
    return Main.BAD_INPUT;
  }
}
