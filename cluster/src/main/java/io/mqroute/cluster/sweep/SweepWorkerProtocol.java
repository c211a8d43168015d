package io.mqroute.cluster.sweep;

import io.mqroute.protocol.SweepMessage;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a {@link SweepWorker}. */
public final class SweepWorkerProtocol {
  private SweepWorkerProtocol() {}

  /** What a sweep worker handles. */
  public interface Command {}

  /** A client's message. */
  record FromClient(SweepMessage message) implements Command {}

  /**
   * A run ended on the pool: its result, or why not ({@code failure} non-null, {@code result}
   * null).
   */
  record Ran(long runId, ActorRef<SweepMessage> client, byte[] result, String failure)
      implements Command {}

  /** A member left the cluster: results still on their way to a client there are dropped. */
  record MemberGone(Address address) implements Command {}
}
