package io.mqroute.cluster;

import com.typesafe.config.Config;
import io.mqroute.actors.device.FileBackend;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The root actor of a cluster node: spawns what the node's role runs. A host runs the {@link HostRouter}
 * (which registers its client entry with the Receptionist); a device runs {@code mqroute.cluster.device.queues}
 * {@link DeviceQueue}s on one shared backend; a client runs nothing here (the load driver spawns its jobs with
 * {@code systemActorOf}). It takes no messages.
 */
public final class NodeGuardian {
  private NodeGuardian() {}

  public static Behavior<Void> create(NodeSettings.Role role) {
    return Behaviors.setup(ctx -> {
      Config c = ctx.getSystem().settings().config();
      switch (role) {
        case HOST -> ctx.spawn(HostRouter.create(HostRouterSettings.fromConfig(c.getConfig("mqroute.cluster.host"))),
            "router");
        case DEVICE -> {
          Config d = c.getConfig("mqroute.cluster.device");
          int first = d.getInt("first-queue");
          DeviceQueue.Settings s0 = DeviceQueue.Settings.fromConfig(first, d);
          // one backend for all queues of the node (a file backend's channels are shared and thread-safe)
          if (s0.backend() instanceof DeviceQueue.FileStore f) {
            FileBackend files = f.files();
            ctx.getSystem().getWhenTerminated().thenRun(files::close);
          }
          for (int i = 0; i < d.getInt("queues"); i++) {
            ctx.spawn(DeviceQueue.create(s0.withIndex(first + i)), "queue-" + (first + i));
          }
        }
        case CLIENT -> { }
        default -> throw new IllegalStateException("unknown role " + role);
      }
      return Behaviors.empty();
    });
  }
}
