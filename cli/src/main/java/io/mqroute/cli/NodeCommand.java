package io.mqroute.cli;

import io.mqroute.cluster.ClusterNode;
import io.mqroute.cluster.NodeConfigException;
import io.mqroute.cluster.NodeGuardian;
import io.mqroute.cluster.NodeSettings;
import io.mqroute.config.UserError;
import io.mqroute.nbd.NbdServer;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.Done;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(
    name = "node",
    mixinStandardHelpOptions = true,
    description =
        "Run a Pekko Cluster node in real time until SIGTERM or Ctrl-C (then it leaves the cluster "
            + "gracefully). host: the router and the client entry; device: queues in front of a device backend "
            + "(null, or file under --data); host+device: both in one process; worker: the runs of sweeps (mqroute run --cluster), as many at once as it"
            + " has cores (mqroute.cluster.worker.slots). Artery over mutual TLS (--keys) on 127.0.0.1, Split Brain Resolver keep-majority, Pekko "
            + "Management with /status and /metrics on 127.0.0.1:(port + 1000).")
final class NodeCommand implements Callable<Integer> {
  /**
   * System property: when true, the node stops when its parent process ends (set by cluster-demo).
   */
  static final String EXIT_WITH_PARENT = "mqroute.exit-with-parent";

  @Option(
      names = "--role",
      paramLabel = "host|device|host+device|worker",
      description =
          "What the node runs (default: the role "
              + "the --config file sets in pekko.cluster.roles). host+device: the router and its device "
              + "queues in one process, for one machine in front of its own storage.")
  String role;

  @Option(
      names = "--port",
      paramLabel = "P",
      description = "Artery TCP port (default: the --config file's, " + "else any free port).",
      defaultValue = "0")
  int port;

  @Option(
      names = "--seeds",
      paramLabel = "HOST:PORT,...",
      description =
          "Seed nodes, e.g. "
              + "127.0.0.1:25520,127.0.0.1:25521 (a bare port means 127.0.0.1). Default: the --config file's; with none "
              + "at all the node starts a new cluster.")
  String seeds;

  @Option(
      names = "--config",
      paramLabel = "FILE",
      description = "HOCON under the flags, e.g. " + "cluster-config/host.conf.")
  Path config;

  @Option(
      names = "--data",
      paramLabel = "DIR",
      description =
          "Device or host+device only: serve requests with the file "
              + "backend on files under DIR (created if missing).")
  Path data;

  @Option(
      names = "--management-port",
      paramLabel = "P",
      description =
          "Pekko Management HTTP port "
              + "(default: the config's, else --port + 1000; 0: any free port).",
      defaultValue = "-1")
  int managementPort;

  @Option(
      names = "--first-queue",
      paramLabel = "N",
      description =
          "Device only: index of the node's first "
              + "queue, reported in completions (default: the config's, 0).",
      defaultValue = "-1")
  int firstQueue;

  @Option(
      names = "--nbd",
      paramLabel = "HOST:PORT",
      description =
          "Host only: serve one NBD export through the router (fio --ioengine=nbd, qemu-img, "
              + "nbdcopy, nbd-client), e.g. 127.0.0.1:10809; loopback unless the config sets "
              + "mqroute.cluster.allow-non-loopback = on.")
  String nbd;

  @Option(
      names = "--export-size",
      paramLabel = "SIZE",
      description =
          "With --nbd: the export's size (default: ${DEFAULT-VALUE}); file 0 on the devices, at "
              + "most mqroute.cluster.device.file-max-bytes.",
      defaultValue = "1g")
  String exportSize;

  @Mixin TransportOptions transport;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    ClusterLogging.quietPeerDisconnects();
    ClusterNode.Started node;
    NbdFrontend.Plan nbdPlan = null;
    try {
      NodeSettings.Role r =
          role != null ? NodeSettings.Role.ofNode(role) : NodeSettings.roleOf(config);
      role = r.configName();
      NodeSettings settings =
          new NodeSettings(
              r,
              port,
              NodeSettings.parseSeeds(seeds),
              config,
              data,
              managementPort,
              firstQueue,
              transport.keys,
              transport.plainTcp);
      if (nbd != null) {
        nbdPlan = NbdFrontend.plan(nbd, exportSize, r.routes(), settings.toConfig());
      }
      node = ClusterNode.start(settings, r == NodeSettings.Role.WORKER ? ClusterSweep.WORK : null);
    } catch (NodeConfigException e) {
      throw new UserError(e.getMessage());
    }
    if (Boolean.getBoolean(EXIT_WITH_PARENT)) {
      // started by cluster-demo: if it dies without stopping us (SIGKILL), nobody else would; leave
      // in order
      ActorSystem<Void> system = node.system();
      ProcessHandle.current()
          .parent()
          .ifPresent(parent -> parent.onExit().thenRun(system::terminate));
    }
    PrintWriter out = spec.commandLine().getOut();
    Cluster cluster = Cluster.get(node.system());
    if (node.system().settings().config().getStringList("pekko.cluster.seed-nodes").isEmpty()) {
      // no seeds anywhere: this node starts a cluster of its own, which others join with --seeds
      // pointing here
      cluster.manager().tell(Join.create(cluster.selfMember().address()));
      out.println("mqroute node: no seeds given, starting a new cluster");
    }
    out.printf(
        "mqroute node: %s at %s%s%n",
        role,
        cluster.selfMember().address(),
        node.managementUri() == null
            ? ""
            : ", management " + node.managementUri() + " (/cluster/members, /status, /metrics)");
    if (nbdPlan != null) {
      // a failure here is one line and exit 2; System.exit's hook then leaves the cluster in order
      NbdServer server = NbdFrontend.start(node.system(), nbdPlan);
      out.printf(
          "mqroute node: NBD export of %d bytes at nbd://%s:%d (file %d through the host router)%n",
          nbdPlan.exportSize(),
          server.address().getAddress().getHostAddress(),
          server.address().getPort(),
          NbdFrontend.FILE_ID);
    }
    out.flush();
    // Until the system ends: SIGTERM/Ctrl-C runs coordinated shutdown (leave, then stop) from
    // Pekko's JVM hook;
    // a node downed by the Split Brain Resolver ends the same way.
    // Once the shutdown reaches its last phase the node's actors are stopping: from there the
    // wait is bounded (Artery may never finish terminating: ClusterNode.awaitTermination)
    CompletableFuture<Void> stopping = new CompletableFuture<>();
    CoordinatedShutdown.get(node.system())
        .addTask(
            CoordinatedShutdown.PhaseBeforeActorSystemTerminate(),
            "mqroute-node-stopping",
            () -> {
              stopping.complete(null);
              return CompletableFuture.completedFuture(Done.getInstance());
            });
    CompletableFuture.anyOf(node.system().getWhenTerminated().toCompletableFuture(), stopping)
        .join();
    ClusterNode.awaitTermination(node.system(), ClusterNode.shutdownBound(node.system()));
    // exit-jvm = off (tests, embedding): still report a node that lost its router or a queue
    boolean childStopped =
        CoordinatedShutdown.get(node.system())
            .getShutdownReason()
            .filter(NodeGuardian.ChildStopped.INSTANCE::equals)
            .isPresent();
    return childStopped ? Main.INVARIANT_BROKEN : Main.OK;
  }
}
