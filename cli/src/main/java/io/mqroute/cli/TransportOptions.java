package io.mqroute.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** How a process joins the cluster's Artery: the cluster's keys (mutual TLS) or plain tcp. */
final class TransportOptions {
  @Option(
      names = "--keys",
      paramLabel = "DIR",
      description =
          "The cluster's keys (made once with 'mqroute keys DIR', copied to every node): Artery over"
              + " mutual TLS, the default transport.")
  Path keys;

  @Option(
      names = "--plain-tcp",
      description = "Artery over plain, unauthenticated tcp instead of TLS (loopback only).")
  boolean plainTcp;
}
