package io.mqroute.cli;

import io.mqroute.cluster.ClusterKeys;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.config.UserError;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

@Command(
    name = "keys",
    mixinStandardHelpOptions = true,
    description =
        "Creates a cluster's keys in DIR (keystore.p12, truststore.p12, keys.conf; readable by you"
            + " only): one EC key and self-signed certificate that every node holds. Nodes take"
            + " --keys DIR and run Artery over mutual TLS; a process without them cannot deliver a"
            + " message. Copy DIR to every node over a channel you trust.")
final class KeysCommand implements Callable<Integer> {
  @Parameters(paramLabel = "DIR", description = "Directory to create the keys in.")
  Path dir;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    try {
      ClusterKeys.create(dir);
    } catch (NodeConfigException e) {
      throw new UserError(e.getMessage());
    }
    spec.commandLine()
        .getOut()
        .printf(
            "mqroute keys: the cluster's keys are in %s; start nodes with --keys %s%n", dir, dir);
    spec.commandLine().getOut().flush();
    return Main.OK;
  }
}
