package io.mqroute.actors.machine;

import io.mqroute.actors.machine.CoreProtocol.Command;
import io.mqroute.actors.machine.CoreProtocol.Exec;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The core of a node that runs the machine's queues in real time, where the real CPU does the work:
 * CPU work takes no modelled time, so each {@link Exec} delivers its message at once (the kernel's
 * harvest and end run inline in the completing context). Everything else a modelled core answers
 * (hotplug, reports) has no meaning here and is ignored.
 */
public final class PassThroughCore {
  private PassThroughCore() {}

  public static Behavior<Command> create() {
    return Behaviors.receive(Command.class)
        .onMessage(
            Exec.class,
            e -> {
              deliver(e);
              return Behaviors.same();
            })
        .onAnyMessage(m -> Behaviors.same())
        .build();
  }

  /** What a zero-cost core does with one piece of work: delivers its message at once. */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static <T> void deliver(Exec<T> e) {
    if (e.start() != null) {
      // the start's delivery first (a commit before its end); the message keeps the instant its
      // sender gave it, as this core has no clock of its own
      ((ActorRef) e.start().to()).tell(e.start().message());
    }
    ((ActorRef<T>) e.to()).tell(e.message());
  }
}
