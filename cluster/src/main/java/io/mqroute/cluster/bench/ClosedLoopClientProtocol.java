package io.mqroute.cluster.bench;

import io.mqroute.protocol.Completion;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of the {@link ClosedLoopClient} actor: what it handles and what it answers. */
public final class ClosedLoopClientProtocol {
  private ClosedLoopClientProtocol() {}

  /** What the client handles. */
  public interface Command {}

  record Done(Completion completion) implements Command {}

  /** Starts the run; {@code replyTo} gets the {@link Report}. */
  public record Start(ActorRef<Report> replyTo) implements Command {}

  /** Completions by outcome, wall time of the run, and the latency distribution (ns). */
  public record Report(long ok, long errors, long wallNanos, Histogram latency) {
    public double perSecond() {
      return (ok + errors) / (wallNanos / 1e9);
    }
  }
}
