package io.mqroute.cluster.membership;

import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Subscribe;

/**
 * The Receptionist's listing and the cluster's membership events, heard through a child of the
 * actor that wants them. All message adapters of an actor share one ref, and the Receptionist
 * watches a subscriber and a registered service with different messages: an actor that registers a
 * service cannot subscribe with its adapters too.
 */
public final class ClusterEvents {
  private ClusterEvents() {}

  /**
   * Spawns the child {@code events} under {@code ctx}: it subscribes to the listing of {@code key}
   * (unless null) and, on a cluster system, to {@code events}, and hands each to {@code onEvent} on
   * its own thread (which should only tell the parent).
   */
  public static void subscribe(
      ActorContext<?> ctx,
      ServiceKey<?> key,
      List<Class<? extends ClusterEvent.ClusterDomainEvent>> events,
      Consumer<Object> onEvent) {
    ActorRef<Object> child =
        ctx.spawn(
            Behaviors.receive(Object.class)
                .onAnyMessage(
                    e -> {
                      onEvent.accept(e);
                      return Behaviors.same();
                    })
                .build(),
            "events");
    if (key != null) {
      ctx.getSystem().receptionist().tell(Receptionist.subscribe(key, child.narrow()));
    }
    // outside a cluster (tests) there are no membership events to hear
    if (ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster")) {
      for (Class<? extends ClusterEvent.ClusterDomainEvent> c : events) {
        Cluster.get(ctx.getSystem()).subscriptions().tell(Subscribe.create(child.narrow(), c));
      }
    }
  }
}
