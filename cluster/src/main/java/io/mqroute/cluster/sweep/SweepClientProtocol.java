package io.mqroute.cluster.sweep;

import io.mqroute.protocol.SweepMessage;
import java.util.Set;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a {@link SweepClient}. */
public final class SweepClientProtocol {
  private SweepClientProtocol() {}

  /** What a sweep client handles. */
  public interface Command {}

  /** A worker's message. */
  record FromWorker(SweepMessage message) implements Command {}

  /** The Receptionist's listing of workers changed. */
  record Listed(Set<ActorRef<SweepMessage>> workers) implements Command {}

  /** A member became unreachable (its runs go elsewhere) or reachable again. */
  record Reachability(Address address, boolean reachable) implements Command {}

  /** No worker has offered slots for the whole wait: the sweep cannot go on. */
  enum NoWorkers implements Command {
    INSTANCE
  }
}
