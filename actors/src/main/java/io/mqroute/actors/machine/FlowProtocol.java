package io.mqroute.actors.machine;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * The messages of one request's flow through a machine: router → queue → poller → queue → router.
 * Each request carries its job's completion address in {@link Request#replyTo()}.
 */
public final class FlowProtocol {
  private FlowProtocol() {}

  // ---- Router

  /** The request path ({@link RouterData}) or the rest ({@link RouterControl}). */
  public sealed interface RouterCommand permits RouterData, RouterControl {}

  /** A request's path: routed, ended, routed again. */
  public sealed interface RouterData extends RouterCommand {}

  /** Everything else: CPU hotplug, queue listing, remount, reports. */
  public sealed interface RouterControl extends RouterCommand {}

  /** A submitted request after the application's submit cost. */
  public record Route(Request request) implements RouterData {}

  /**
   * A request issued by an io-wq worker of its job ({@link IoUringPunt#IO_WQ}): routed as a {@link
   * Route}, from the worker's CPU ({@link Request#cpu()}); the job's own submit work was accounted
   * when it punted the request.
   */
  public record Issued(Request request) implements RouterData {}

  /**
   * Submitted requests in order, as that many {@link Route}s in a row: what a transport read at
   * once (a node's clients send batches). The queues each gets come in one {@link EnqueueAll}.
   */
  public record RouteAll(List<Request> requests) implements RouterData {
    /** One {@link Route} for one request, else a {@code RouteAll}. */
    public static RouterData of(List<Request> requests) {
      return requests.size() == 1 ? new Route(requests.get(0)) : new RouteAll(requests);
    }
  }

  /**
   * A request has ended (completion cost paid) on {@code completingCpu}: the queue's interrupt CPU
   * (virtio), or the CPU its ring thread runs on (fuse-over-io-uring); wake its waiter from there.
   * {@code queue} is the router's index of the queue it ended on (the completion's own {@link
   * Completion#queue()} names the queue as it calls itself: the same on one machine, the device's
   * index behind a cluster host's slot).
   *
   * @param wakerRunsOn the thread that ends it has more of its queue's requests to serve or commit
   *     right after (a ring thread with other requests on its ring, a /dev/fuse worker that takes a
   *     pending one): it does not sleep after the waiter's wake-up ({@code
   *     machine.kernel.vcpu-pack-sleeping-waker})
   */
  public record Ended(
      Request request, Completion completion, int queue, int completingCpu, boolean wakerRunsOn)
      implements RouterData, CoreProtocol.StartStamped<Ended> {
    /** A queue of this machine (the completion names it), whose ending thread may run on. */
    public Ended(Request request, Completion completion, int completingCpu, boolean wakerRunsOn) {
      this(request, completion, completion.queue(), completingCpu, wakerRunsOn);
    }

    /** From a queue the completion does not name (a remote slot). */
    public Ended(Request request, Completion completion, int queue, int completingCpu) {
      this(request, completion, queue, completingCpu, false);
    }

    /**
     * Completed at {@code nanos}: the commit that ends it in the same item ({@link
     * CoreProtocol.Exec#start}) ran then.
     */
    @Override
    public Ended startedAt(long nanos) {
      Completion c = completion;
      return new Ended(
          request,
          new Completion(
              c.id(), c.status(), c.submitNanos(), c.dispatchNanos(), nanos, c.queue(), c.data()),
          queue,
          completingCpu,
          wakerRunsOn);
    }
  }

  /**
   * Ends in order, as that many {@link Ended}s in a row: what a transport brought back at once. The
   * wake-ups each core gets come in one {@link CoreProtocol.ExecAll}.
   */
  public record EndedAll(List<Ended> ends) implements RouterData {
    /** The {@link Ended} itself for one end, else an {@code EndedAll}. */
    public static RouterData of(List<Ended> ends) {
      return ends.size() == 1 ? ends.get(0) : new EndedAll(ends);
    }
  }

  public record RouterReport(ActorRef<RouterStats> replyTo) implements RouterControl {}

  /**
   * A CPU went offline or came back. The router's view follows it (whether the selector looks is
   * the selector's business); with {@code evacuate} the queues homed on an offline CPU also hand
   * their overflow back for re-routing (blk-mq style drain).
   */
  public record CpuHotplug(int cpu, boolean online, boolean evacuate) implements RouterControl {}

  /**
   * A queue joined ({@code listed}) or left the routing masks for good: fuse_uring_do_register, or
   * the teardown of a queue whose server is gone (a device node lost or leaving). Leaving, it is
   * out of every mask at once; the requests waiting for its per-queue background admission are
   * admitted anew elsewhere, and the queue hands its overflow list back ({@link Evacuate}), the
   * same way a hotplug-aware queue does when its CPU goes offline.
   */
  public record QueueListed(int queue, boolean listed) implements RouterControl {}

  /** Asks for every queue's nr_reqs, in queue order (management and tests). */
  public record QueueLoads(ActorRef<List<Integer>> replyTo) implements RouterControl {}

  /** A queue handed back a request from its overflow list: pick another queue for it. */
  public record Reroute(Request request, int fromQueue) implements RouterData {}

  /** Unmount: report anything still counted (nr_reqs, background) — there must be nothing. */
  public record RouterRemount(ActorRef<MachineProtocol.Command> replyTo) implements RouterControl {}

  /**
   * @param routed dispatches to a queue (a request re-routed off an offline CPU's queue counts
   *     again)
   * @param noQueue requests refused because the selector found no queue (EINVAL / ENOTCONN)
   * @param blocked background submissions that had to wait for max_background (fc->blocked)
   * @param maxNumBackground the highest num_background seen
   * @param maxActive the highest active_background seen
   * @param admissionBreaches times active_background exceeded max_background other than by the
   *     one-per-queue rule (invariant 5; must be 0)
   * @param holding ids of background requests still waiting for admission in the router
   * @param offlineCpus CPUs the router's view holds offline at the end
   * @param offlineQueues queues the router's view holds out of the online mask at the end
   */
  public record RouterStats(
      long routed,
      long noQueue,
      long blocked,
      int maxNumBackground,
      int maxActive,
      long admissionBreaches,
      long[] routedPerQueue,
      List<Long> holding,
      List<Integer> offlineCpus,
      List<Integer> offlineQueues) {}

  // ---- Queue

  /** The request path ({@link QueueData}) or the rest ({@link QueueControl}). */
  public sealed interface QueueCommand permits QueueData, QueueControl {}

  /** A request's path: enqueued, served, harvested, retried. */
  public sealed interface QueueData extends QueueCommand {}

  /** Everything else: faults, evacuation, remount, server moves, reports. */
  public sealed interface QueueControl extends QueueCommand {}

  public record Enqueue(Request request) implements QueueData {}

  /**
   * Requests in order, as that many {@link Enqueue}s in a row (a batch the router or wire sent).
   */
  public record EnqueueAll(List<Request> requests) implements QueueData {
    /** One {@link Enqueue} for one request, else an {@code EnqueueAll}. */
    public static QueueData of(List<Request> requests) {
      return requests.size() == 1 ? new Enqueue(requests.get(0)) : new EnqueueAll(requests);
    }
  }

  /** The poller has finished a request that was on the ring; its slot can be harvested. */
  public record Served(OnRing item) implements QueueData {}

  /**
   * A /dev/fuse worker woken for pending requests gets its CPU and reads the device ({@link
   * DevFuseQueue}, {@code machine.kernel.dev-fuse-read = at-run}).
   */
  public record WorkerRuns(int worker) implements QueueData {}

  /** The IPI of a wake-up whose woken worker waits for its CPU has been sent: nothing to do. */
  public enum IpiSent implements QueueData {
    INSTANCE
  }

  /**
   * {@link Served} and {@link Harvest} in one: the ring thread's CPU took the request's completion
   * at the device's end and ran the harvest item itself ({@link UsedRing#harvests}), whose work
   * starts now. Only for a queue of one ring thread held until its commit, so no other completion
   * can be waiting to join this harvest.
   */
  public record ServedHarvested(OnRing item) implements QueueData {}

  /** As that many {@link Served}s in a row: what a poller finished inline in one go. */
  public record ServedAll(List<OnRing> items) implements QueueData {
    /** One {@link Served} for one item, else a {@code ServedAll}. */
    public static QueueData of(List<OnRing> items) {
      return items.size() == 1 ? new Served(items.get(0)) : new ServedAll(items);
    }
  }

  /** The home core runs the queue's done_work: harvest what the device has completed. */
  enum Harvest implements QueueData {
    INSTANCE
  }

  /** The delayed-retry timer (pre-seed-001 virtio-fs: schedule_delayed_work(1 ms)). */
  enum RetryTick implements QueueData {
    INSTANCE
  }

  public record QueueReport(ActorRef<QueueStats> replyTo) implements QueueControl {}

  /**
   * The queue's CPU went offline (hotplug-aware semantics): hand the overflow list back to the
   * router.
   */
  public enum Evacuate implements QueueControl {
    INSTANCE
  }

  /** Start or end an injected fault on this queue or its poller (value 0 ends it). */
  public record QueueFault(Fault fault) implements QueueControl {}

  /**
   * The queue's server thread now runs on CPU {@code cpu} (the scheduler moved it off an offline
   * CPU, or it went back): the queue hands this to its poller, and a ring queue ends its requests
   * there from now on.
   */
  public record MoveServer(int cpu, ActorRef<CoreProtocol.Command> core)
      implements QueueControl, PollerControl {}

  /**
   * Unmount and mount again: the queue must be drained ({@code in_flight == 0}); it reports what it
   * still held, then starts the next mount with no injected fault (ENOMEM rate as configured, whole
   * ring, device healthy).
   */
  public record QueueRemount(ActorRef<MachineProtocol.Command> replyTo) implements QueueControl {}

  /**
   * A request accepted by a queue at {@code acceptedNanos}; the device sets {@code status} when it
   * fails, and {@code holdsWorker} when its server thread waits for this request's {@link
   * Committed} before the next; a real device ({@link io.mqroute.actors.device.IoDevice}) puts a
   * data-carrying read's bytes in {@code data}.
   */
  public record OnRing(
      Request request, long acceptedNanos, Status status, boolean holdsWorker, byte[] data) {
    /** The request's completion as queue {@code queue} reports it, ended at {@code endNanos}. */
    public Completion completion(int queue, Status status, long endNanos) {
      return new Completion(
          request.id(),
          status,
          request.submitNanos(),
          acceptedNanos,
          endNanos,
          queue,
          status == Status.OK ? data : null);
    }

    public OnRing(Request request, long acceptedNanos) {
      this(request, acceptedNanos, Status.OK, false, null);
    }

    public OnRing(Request request, long acceptedNanos, Status status, boolean holdsWorker) {
      this(request, acceptedNanos, status, holdsWorker, null);
    }
  }

  /**
   * @param maxOccupancy the most ring slots ever held at once
   * @param overflowWaits requests that had to wait on the overflow list (ENOSPC)
   * @param overflowNanos total time requests spent on the overflow list
   * @param delayedRetries delayed-retry timer firings
   * @param ringAttempts attempts to add a request to the ring (first tries and refills)
   * @param enomem ring insertions that failed with ENOMEM
   * @param violations invariant breaches seen by the queue itself (must be empty)
   * @param stuck ids of requests still on the ring or the overflow list
   * @param rerouted overflow requests handed back to the router (hotplug-aware evacuation)
   * @param maxWaitNanos the longest any request stayed on this queue, accepted to ended
   * @param errors requests that ended with an error (ENOMEM, injected EIO)
   * @param queueing waits, server busy time and queue lengths since the queue started
   */
  public record QueueStats(
      int queue,
      int homeCpu,
      long accepted,
      long completed,
      int maxOccupancy,
      long overflowWaits,
      long overflowNanos,
      long delayedRetries,
      long ringAttempts,
      long enomem,
      int onRing,
      int queued,
      List<String> violations,
      List<Long> stuck,
      long rerouted,
      long maxWaitNanos,
      long errors,
      Queueing queueing) {}

  // ---- Poller

  /** The request path ({@link PollerData}) or the rest ({@link PollerControl}). */
  public sealed interface PollerCommand permits PollerData, PollerControl {}

  /** A request's path: served, its CPU work and device time done, committed. */
  public sealed interface PollerData extends PollerCommand {}

  /** Everything else: device faults, server moves, reports. */
  public sealed interface PollerControl extends PollerCommand {}

  /**
   * Serve a request from the ring; give it to {@code done} (the ring's used side, callable from any
   * thread) when the device is finished with it.
   */
  public record Serve(OnRing item, Consumer<OnRing> done) implements PollerData {}

  /**
   * As that many {@link Serve}s in a row: what one message to an in-place queue put on the ring.
   */
  public record ServeAll(List<Serve> serves) implements PollerData {
    /** The {@link Serve} itself for one, else a {@code ServeAll}. */
    public static PollerData of(List<Serve> serves) {
      return serves.size() == 1 ? serves.get(0) : new ServeAll(serves);
    }
  }

  /**
   * A ring's used side that is a queue's mailbox: the poller may then deliver {@link Served} to
   * {@code queue} straight from the device's end instant (a timed delivery) when it has nothing to
   * decide there. With {@code harvests} null the queue harvests only when it hears of a completion.
   */
  public record UsedRing(ActorRef<QueueCommand> queue, Harvests harvests)
      implements Consumer<OnRing> {
    @Override
    public void accept(OnRing item) {
      queue.tell(new Served(item));
    }
  }

  /**
   * The queue's harvest item (the harvest, then the first harvested request's end, one item on the
   * harvesting CPU: fuse_uring_commit_fetch's commit and fuse_request_end in one context): what
   * {@link RequestQueue} sends its core on a completion, and what a ring thread's core may start
   * itself at the device's end.
   *
   * @param cpu the harvesting CPU, named in the {@link Ended}
   */
  public record Harvests(ActorRef<RouterCommand> router, int queue, int cpu, long completionNanos) {
    /**
     * The item that harvests {@code served}: {@code atStart} to {@code to} when its work starts,
     * then {@code served}'s {@link Ended} (stamped with that instant) to the router at its end.
     */
    public <Q> CoreProtocol.Exec<RouterCommand> item(
        ActorRef<Q> to, Q atStart, OnRing served, long nowNanos) {
      return item(to, atStart, served, nowNanos, false);
    }

    /**
     * @param wakerRunsOn the ring thread has other requests on its ring after this one ({@link
     *     Ended#wakerRunsOn})
     */
    public <Q> CoreProtocol.Exec<RouterCommand> item(
        ActorRef<Q> to, Q atStart, OnRing served, long nowNanos, boolean wakerRunsOn) {
      // ended at the harvest's instant: the core stamps it when the work starts
      Completion c = served.completion(queue, served.status(), nowNanos);
      return new CoreProtocol.Exec<>(
          completionNanos,
          Work.COMPLETION,
          router,
          new Ended(served.request(), c, cpu, wakerRunsOn),
          Work.COMPLETION.iowaitWakeup(),
          0,
          new CoreProtocol.Start<>(to, atStart));
    }
  }

  /**
   * A ring queue has ended the request its server thread finished (COMMIT_AND_FETCH's commit half):
   * the thread fetches its next request only now, so a request's completion work runs before the
   * next request's.
   */
  enum Committed implements PollerData {
    INSTANCE
  }

  /**
   * {@link Committed}, and the requests the ring took for this thread while it was held
   * (COMMIT_AND_FETCH: the commit, then the fetch of what is waiting): a queue that keeps its one
   * ring thread's backlog until the thread is free sends them here instead of a {@link Serve} each
   * (issue #18), in the order the ring took them.
   */
  record CommitServe(List<Serve> serves) implements PollerData {}

  /** The server's CPU work for {@code serve} has run; {@code deviceNanos} of device time remain. */
  record ServerDone(Serve serve, long deviceNanos) implements PollerData {
    /** The device time is not known yet: ask the device now. */
    static final long ASK_DEVICE = -1;
  }

  /** The device has finished {@code serve}; the worker is released too unless it already was. */
  record DeviceDone(Serve serve, boolean releasesWorker) implements PollerData {}

  /** A real device's I/O for {@code serve} has ended with {@code result}. */
  record IoDone(Serve serve, io.mqroute.actors.device.IoDevice.Result result)
      implements PollerData {}

  /** The worker's share of an async device's time is over: it can take the next request. */
  record WorkerFree(Serve serve) implements PollerData {}

  /** An injected device fault (EIO rate, stall, slowdown), forwarded by the queue. */
  record PollerFault(Fault fault) implements PollerControl {}

  /** The queue asks its poller for the servers' side of its {@link Queueing}. */
  record PollerReport(ActorRef<QueueCommand> replyTo) implements PollerControl {}

  /** The poller's answer: its servers, the waits it saw and its busy and waiting time. */
  record PollerCounters(Queueing servers) implements QueueControl {}
}
