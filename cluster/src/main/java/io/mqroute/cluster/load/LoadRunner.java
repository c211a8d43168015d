package io.mqroute.cluster.load;

import io.mqroute.actors.machine.JobPlan;
import io.mqroute.cluster.DeviceQueue;
import io.mqroute.cluster.HostRouter;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import io.mqroute.workload.FioJobFile;
import io.mqroute.workload.FioWorkload;
import io.mqroute.workload.JobSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;

/**
 * Runs an fio job file in real time from a client node: finds the host routers through the
 * Receptionist, plans the clones as {@code mqroute run} does ({@link FioWorkload}), runs the
 * stonewall groups one after the other, each group's clones at once as {@link LoadClone}s (the
 * model's job; clone i on router i mod n), and gathers their statistics in job order.
 */
public final class LoadRunner {
  /**
   * The outcome: statistics per clone (job order), ends by status, abandoned requests, wall time.
   */
  public record Result(
      List<JobStats> clones,
      Map<Status, Long> byStatus,
      long abandoned,
      long wallNanos,
      List<String> violations,
      VerifyReport verify) {
    public long requests() {
      return byStatus.values().stream().mapToLong(Long::longValue).sum();
    }

    public long errors() {
      return requests() - byStatus.getOrDefault(Status.OK, 0L);
    }
  }

  /** What {@code verify=} found over every clone (see {@link LoadCloneProtocol.VerifyReport}). */
  public record VerifyReport(long checked, long errors, List<String> first) {}

  /** Seed of the clones' workload streams: runs of one file issue the same offsets. */
  static final long SEED = 0x6d71726f75746500L;

  /**
   * Clones started in this JVM: unique actor names across runs (a stopped clone's name lingers).
   */
  private static final AtomicLong CLONES = new AtomicLong();

  private LoadRunner() {}

  /**
   * Waits until at least one host router is listed (reachable) or {@code timeout} passes.
   *
   * @throws TimeoutException when no router showed up in time
   */
  public static List<ActorRef<Request>> awaitRouters(ActorSystem<?> system, Duration timeout)
      throws Exception {
    List<ActorRef<Request>> routers =
        new ArrayList<>(awaitListed(system, HostRouter.ROUTERS, "host router", timeout));
    routers.sort(Comparator.comparing(r -> r.path().toString()));
    return routers;
  }

  /**
   * Waits until at least one device queue is listed or {@code timeout} passes: a load started while
   * the devices are still joining would have every request answered ENOTCONN (no queue to choose)
   * until they arrive. Returns how many are listed.
   *
   * @throws TimeoutException when no queue showed up in time
   */
  public static int awaitQueues(ActorSystem<?> system, Duration timeout) throws Exception {
    return awaitListed(system, DeviceQueue.QUEUES, "device queue", timeout).size();
  }

  private static <T> Set<ActorRef<T>> awaitListed(
      ActorSystem<?> system, ServiceKey<T> key, String what, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Receptionist.Listing listing =
          AskPattern.<Receptionist.Command, Receptionist.Listing>ask(
                  system.receptionist(),
                  r -> Receptionist.find(key, r),
                  Duration.ofSeconds(5),
                  system.scheduler())
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      Set<ActorRef<T>> listed = listing.getServiceInstances(key);
      if (!listed.isEmpty()) {
        return listed;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("no " + what + " found within " + timeout.toSeconds() + " s");
      }
      // the Receptionist has no "wait until non-empty": ask again after a short pause (not a test)
      Thread.sleep(200);
    }
  }

  /**
   * Runs {@code file} against {@code routers}; {@code stallLimit}: how long a clone waits with
   * requests outstanding and none answered before it ends them; {@code groupTimeout} bounds each
   * group.
   */
  public static Result run(
      ActorSystem<?> system,
      FioJobFile file,
      List<ActorRef<Request>> routers,
      Duration stallLimit,
      Duration groupTimeout)
      throws Exception {
    return run(system, file, routers, stallLimit, Duration.ZERO, groupTimeout);
  }

  /**
   * As {@link #run(ActorSystem, FioJobFile, List, Duration, Duration)}, and a host that answers
   * none of a clone's outstanding requests for {@code hostTimeout} is taken as lost (zero: only
   * when its router leaves the cluster).
   */
  public static Result run(
      ActorSystem<?> system,
      FioJobFile file,
      List<ActorRef<Request>> routers,
      Duration stallLimit,
      Duration hostTimeout,
      Duration groupTimeout)
      throws Exception {
    FioWorkload workload = new FioWorkload(file);
    // a client has no modelled CPUs: one, and the wire's CPU is the clone's pid (RouterClient)
    List<JobPlan> plans = workload.plans(CpuTopology.uniform(1, 1));
    long base = NanoClock.SYSTEM.nanoTime();
    List<JobStats> clones = new ArrayList<>();
    Map<Status, Long> byStatus = new EnumMap<>(Status.class);
    long abandoned = 0;
    long checked = 0;
    long verifyErrors = 0;
    List<String> firstErrors = new ArrayList<>();
    List<String> violations = new ArrayList<>();
    for (int group = 0; group < file.groupCount(); group++) {
      List<CompletableFuture<LoadCloneProtocol.Finished>> running = new ArrayList<>();
      for (JobPlan plan : plans) {
        if (plan.group() != group) {
          continue;
        }
        int pid = plan.index() + 1;
        JobSpec j = specOf(file, plan.index());
        JobStats stats = workload.newStats(plan);
        clones.add(stats);
        LoadData data =
            j.verify().enabled()
                ? new LoadData(
                    j.name(), pid, j.verify(), pid, plan.offset(), plan.sizeBytes(), plan.bsWrite())
                : null;
        ActorRef<Request> router = routers.get((pid - 1) % routers.size());
        ActorRef<LoadCloneProtocol.Command> clone =
            system.systemActorOf(
                LoadClone.create(plan, pid, SEED, stats, router, stallLimit, hostTimeout, data),
                "load-" + CLONES.incrementAndGet() + "-" + pid,
                Props.empty());
        running.add(
            AskPattern.<LoadCloneProtocol.Command, LoadCloneProtocol.Finished>ask(
                    clone, LoadCloneProtocol.Run::new, groupTimeout, system.scheduler())
                .toCompletableFuture());
      }
      for (CompletableFuture<LoadCloneProtocol.Finished> f : running) {
        LoadCloneProtocol.Finished done =
            f.get(groupTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        done.byStatus().forEach((s, n) -> byStatus.merge(s, n, Long::sum));
        abandoned += done.abandoned();
        violations.addAll(done.violations());
        checked += done.verify().checked();
        verifyErrors += done.verify().errors();
        done.verify().first().stream()
            .limit(Math.max(0, 10 - firstErrors.size()))
            .forEach(firstErrors::add);
      }
    }
    // job order: clones were added group by group
    clones.sort(Comparator.comparingInt(s -> s.info().pid()));
    return new Result(
        clones,
        Map.copyOf(byStatus),
        abandoned,
        NanoClock.SYSTEM.nanoTime() - base,
        List.copyOf(violations),
        new VerifyReport(checked, verifyErrors, List.copyOf(firstErrors)));
  }

  /**
   * Why {@code j}'s {@code verify=} cannot run in a load job, or null (also when it is off): the
   * load command refuses those with the job file's line.
   */
  public static String verifyProblem(JobSpec j) {
    if (!j.verify().enabled()) {
      return null;
    }
    String v = "verify=" + j.verify().kind().fioName();
    if (!j.rw().writes()) {
      return v
          + " with rw="
          + j.rw().fioName()
          + " (mqroute load checks what the same job wrote: use a writing rw=)";
    }
    if (j.blockSizeRead() != j.blockSizeWrite()
        || j.pattern().readSizes() != null
        || j.pattern().writeSizes() != null) {
      return v + " with several block sizes (one bs= for reads and writes, no bssplit/bsrange)";
    }
    long bs = j.blockSizeWrite();
    if (bs < BlockVerifier.minBlockBytes(j.verify().kind()) || bs > Request.MAX_DATA) {
      return v
          + " with bs="
          + bs
          + " (verified blocks are "
          + BlockVerifier.minBlockBytes(j.verify().kind())
          + " to "
          + Request.MAX_DATA
          + " bytes: each travels in one wire message)";
    }
    if (j.ioRegionBytes() / bs > WrittenBlocks.MAX_BLOCKS) {
      return v
          + " over "
          + j.ioRegionBytes() / bs
          + " blocks (a verifying clone tracks at most "
          + WrittenBlocks.MAX_BLOCKS
          + ": lower size=)";
    }
    return null;
  }

  /** The job of clone {@code index} (clones count over the jobs in file order). */
  private static JobSpec specOf(FioJobFile file, int index) {
    int n = 0;
    for (JobSpec j : file.jobs()) {
      if (index < n + j.numjobs()) {
        return j;
      }
      n += j.numjobs();
    }
    throw new IllegalArgumentException("no job clone " + index);
  }
}
