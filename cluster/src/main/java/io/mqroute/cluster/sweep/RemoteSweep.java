package io.mqroute.cluster.sweep;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;

/**
 * A sweep handed to the cluster's workers: {@code orders.get(i)} is run {@code i}; the result is
 * the workers' encoded results in the same order.
 */
public final class RemoteSweep {
  private RemoteSweep() {}

  /**
   * The sweep's end.
   *
   * @param results run {@code i}'s encoded result, or null where it failed
   * @param failures why run {@code i} failed (on two workers, or twice on the only one), by run
   * @param roundTripNanos run {@code i}'s wall time from sending it to its result's last part (0
   *     where it failed): the run itself and the cost of shipping it
   */
  public record Outcome(
      List<byte[]> results, Map<Integer, String> failures, long[] roundTripNanos) {}

  /** The sweep has no worker: none offered slots within the wait. */
  public static final class NoWorkers extends RuntimeException {
    private static final long serialVersionUID = 1L;

    NoWorkers(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * Where a sweep is, for the terminal.
   *
   * @param workers by worker address (host:port), in the order they offered
   */
  public record Progress(
      int total, int done, int failed, int inFlight, int resent, Map<String, Worker> workers) {
    static final Progress NONE = new Progress(0, 0, 0, 0, 0, Map.of());
  }

  /**
   * One worker's share.
   *
   * @param lost true once it became unreachable or left (its runs went elsewhere)
   */
  public record Worker(int slots, int inFlight, int done, boolean lost) {}

  /** A running sweep: its end, and where it is now. */
  public record Running(CompletableFuture<Outcome> outcome, SweepClient.Watch progress) {}

  /**
   * Starts handing out {@code orders} from a client node.
   *
   * @param noWorkers how long the sweep waits with no worker before it fails with {@link NoWorkers}
   */
  public static Running start(ActorSystem<?> system, List<byte[]> orders, Duration noWorkers) {
    CompletableFuture<Outcome> done = new CompletableFuture<>();
    SweepClient.Watch watch = new SweepClient.Watch();
    system.systemActorOf(
        SweepClient.create(orders, noWorkers, done, watch), "sweep-client", Props.empty());
    return new Running(done, watch);
  }
}
