package io.mqroute.cluster;

import com.typesafe.config.Config;
import io.mqroute.cluster.sweep.SweepWork;
import io.mqroute.cluster.sweep.SweepWorker;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.ChildFailed;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The root actor of a cluster node: spawns what the node's role runs. A host runs the {@link
 * HostRouter} (which registers its client entry with the Receptionist); a device runs {@code
 * mqroute.cluster.device.queues} {@link DeviceQueue}s on one shared backend; a host+device both; a
 * worker runs a {@link SweepWorker}; a client runs nothing here (the load driver spawns its jobs
 * with {@code systemActorOf}). It takes no messages.
 *
 * <p>It watches what it spawned: a router or queue that stops or fails leaves a node that is Up in
 * the cluster with nothing behind it, so the guardian logs one line and shuts the node down with
 * {@link ChildStopped}, whose exit code is 1 (see {@link ClusterNode#start}).
 */
public final class NodeGuardian {
  private NodeGuardian() {}

  /** Why a node shuts down when its router or a queue stopped: exits non-zero. */
  public static final class ChildStopped implements CoordinatedShutdown.Reason {
    public static final ChildStopped INSTANCE = new ChildStopped();

    private ChildStopped() {}
  }

  public static Behavior<Void> create(NodeSettings.Role role) {
    return create(role, null);
  }

  /**
   * @param work what a worker does with a sweep's run (worker only; the module that runs
   *     experiments supplies it)
   */
  public static Behavior<Void> create(NodeSettings.Role role, SweepWork work) {
    return Behaviors.setup(
        ctx -> {
          Config c = ctx.getSystem().settings().config();
          if (role.routes()) {
            ctx.watch(
                ctx.spawn(
                    HostRouter.create(
                        HostRouterSettings.fromConfig(c.getConfig("mqroute.cluster.host"))),
                    "router"));
          }
          if (role.serves()) {
            Config d = c.getConfig("mqroute.cluster.device");
            int first = d.getInt("first-queue");
            DeviceQueue.Settings s0 = DeviceQueue.Settings.fromConfig(first, d);
            // one backend for all queues of the node (a file backend's channels are shared and
            // thread-safe)
            if (s0.backend() instanceof DeviceQueue.FileStore f) {
              FileBackend files = f.files();
              ctx.getSystem().getWhenTerminated().thenRun(files::close);
            }
            for (int i = 0; i < d.getInt("queues"); i++) {
              ActorRef<DeviceQueueProtocol.Command> q =
                  ctx.spawn(DeviceQueue.create(s0.withIndex(first + i)), "queue-" + (first + i));
              ctx.watch(q);
            }
          }
          if (role == NodeSettings.Role.WORKER) {
            if (work == null) {
              throw new IllegalStateException("a worker node needs its SweepWork");
            }
            int slots = c.getInt("mqroute.cluster.worker.slots");
            ctx.watch(
                ctx.spawn(
                    SweepWorker.create(
                        slots > 0 ? slots : Runtime.getRuntime().availableProcessors(),
                        work,
                        NodeMetrics.get(ctx.getSystem())::sweep),
                    "sweep-worker"));
          }
          return Behaviors.receive(Void.class)
              .onSignal(
                  Terminated.class,
                  t -> {
                    CoordinatedShutdown shutdown =
                        CoordinatedShutdown.get(Adapter.toClassic(ctx.getSystem()));
                    if (shutdown.getShutdownReason().isPresent()) {
                      return Behaviors.same(); // stopping anyway
                    }
                    String why = t instanceof ChildFailed f ? "failed: " + f.getCause() : "stopped";
                    ctx.getLog()
                        .error(
                            "mqroute node: {} {}; shutting the node down",
                            t.getRef().path().name(),
                            why);
                    shutdown.run(ChildStopped.INSTANCE);
                    return Behaviors.same();
                  })
              .build();
        });
  }
}
