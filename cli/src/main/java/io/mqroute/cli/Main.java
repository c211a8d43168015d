package io.mqroute.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.mqroute.config.UserError;
import java.io.PrintWriter;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Entry point of the runnable jar: {@code mqroute <command> ...}. */
@Command(
    name = "mqroute",
    mixinStandardHelpOptions = true,
    versionProvider = Main.Version.class,
    description =
        "Actor-based multi-queue request router: policy experiments in virtual time, chaos tests, "
            + "and a Pekko Cluster node.",
    subcommands = {
      RunCommand.class,
      ChaosCommand.class,
      NodeCommand.class,
      LoadCommand.class,
      KeysCommand.class,
      ClusterDemoCommand.class,
      ClusterBenchCommand.class,
      BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class Main implements Runnable {
  /** Exit codes shared by every command. */
  public static final int OK = 0;

  public static final int INVARIANT_BROKEN = 1;
  public static final int BAD_INPUT = 2;
  public static final int EXPECTATION_FAILED = 3;

  @Option(
      names = {"-v", "--verbose"},
      description = "Log at INFO (default: warnings and errors only).",
      scope = CommandLine.ScopeType.INHERIT)
  void setVerbose(boolean verbose) {
    ((Logger) LoggerFactory.getLogger(Logger.ROOT_LOGGER_NAME))
        .setLevel(verbose ? Level.INFO : Level.WARN);
  }

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  public static void main(String[] args) {
    LoggerFactory.getILoggerFactory(); // initialize logging before Pekko's threads race to do it
    System.exit(
        execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
  }

  /**
   * Runs one command line; user mistakes become one line on {@code err} and exit code 2, never a
   * trace.
   */
  public static int execute(String[] args, PrintWriter out, PrintWriter err) {
    CommandLine cl = new CommandLine(new Main());
    cl.setOut(out);
    cl.setErr(err);
    cl.setParameterExceptionHandler(
        (ex, a) -> {
          err.println("mqroute: " + ex.getMessage());
          err.println("Try 'mqroute " + commandPath(ex.getCommandLine()) + "--help' for usage.");
          return BAD_INPUT;
        });
    cl.setExecutionExceptionHandler(
        (ex, commandLine, parseResult) -> {
          if (ex instanceof UserError) {
            err.println("mqroute: " + ex.getMessage());
            return BAD_INPUT;
          }
          throw ex;
        });
    return cl.execute(args);
  }

  private static String commandPath(CommandLine cl) {
    StringBuilder sb = new StringBuilder();
    for (CommandLine c = cl; c.getParent() != null; c = c.getParent()) {
      sb.insert(0, c.getCommandName() + " ");
    }
    return sb.toString();
  }

  /** The version from the jar manifest, or "dev" when run from classes. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      String v = Main.class.getPackage().getImplementationVersion();
      return new String[] {"mqroute " + (v == null ? "dev" : v)};
    }
  }
}
