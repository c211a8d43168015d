package io.mqroute.actors.machine;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of one request's flow through a machine: router → queue → poller → queue → router. Each
 * request carries its job's completion address in {@link Request#replyTo()}.
 */
public final class FlowProtocol {
  private FlowProtocol() {}

  // ---- Router

  public sealed interface RouterCommand permits Route, Ended, RouterReport {}

  /** A submitted request after the application's submit cost. */
  public record Route(Request request) implements RouterCommand {}

  /** A request has ended on its queue's core (completion cost paid); wake its waiter. */
  public record Ended(Request request, Completion completion) implements RouterCommand {}

  public record RouterReport(ActorRef<RouterStats> replyTo) implements RouterCommand {}

  /**
   * @param noQueue           requests refused because the selector found no queue (EINVAL / ENOTCONN)
   * @param blocked           background submissions that had to wait for max_background (fc->blocked)
   * @param maxNumBackground  the highest num_background seen
   * @param maxActive         the highest active_background seen
   * @param admissionBreaches times active_background exceeded max_background other than by the
   *                          one-per-queue rule (invariant 5; must be 0)
   */
  public record RouterStats(
      long routed, long noQueue, long blocked, int maxNumBackground, int maxActive, long admissionBreaches,
      long[] routedPerQueue) {}

  // ---- Queue

  public sealed interface QueueCommand permits Enqueue, Served, Harvest, RetryTick, QueueReport {}

  public record Enqueue(Request request) implements QueueCommand {}

  /** The poller has finished a request that was on the ring; its slot can be harvested. */
  public record Served(OnRing item) implements QueueCommand {}

  /** The home core runs the queue's done_work: harvest what the device has completed. */
  enum Harvest implements QueueCommand {
    INSTANCE
  }

  /** The delayed-retry timer (pre-seed-001 virtio-fs: schedule_delayed_work(1 ms)). */
  enum RetryTick implements QueueCommand {
    INSTANCE
  }

  public record QueueReport(ActorRef<QueueStats> replyTo) implements QueueCommand {}

  /** A request accepted by a queue at {@code acceptedNanos}. */
  public record OnRing(Request request, long acceptedNanos) {}

  /**
   * @param maxOccupancy  the most ring slots ever held at once
   * @param overflowWaits requests that had to wait on the overflow list (ENOSPC)
   * @param overflowNanos total time requests spent on the overflow list
   * @param delayedRetries delayed-retry timer firings
   * @param ringAttempts  attempts to add a request to the ring (first tries and refills)
   * @param enomem        ring insertions that failed with ENOMEM
   * @param violations    invariant breaches seen by the queue itself (must be empty)
   * @param stuck         ids of requests still on the ring or the overflow list
   */
  public record QueueStats(
      int queue, int homeCpu, long accepted, long completed, int maxOccupancy, long overflowWaits,
      long overflowNanos, long delayedRetries, long ringAttempts, long enomem, int onRing, int queued, List<String> violations,
      List<Long> stuck) {}

  // ---- Poller

  public sealed interface PollerCommand permits Serve, ServerDone, DeviceDone, WorkerFree {}

  /** Serve a request; complete {@code done} when the device is finished with it. */
  public record Serve(OnRing item, CompletableFuture<OnRing> done) implements PollerCommand {}

  /** The server's CPU work for {@code serve} has run; {@code deviceNanos} of device time remain. */
  record ServerDone(Serve serve, long deviceNanos) implements PollerCommand {}

  /** The device has finished {@code serve}; the worker is released too unless it already was. */
  record DeviceDone(Serve serve, boolean releasesWorker) implements PollerCommand {}

  /** The worker's share of an async device's time is over: it can take the next request. */
  record WorkerFree(Serve serve) implements PollerCommand {}
}
