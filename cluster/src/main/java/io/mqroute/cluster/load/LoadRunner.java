package io.mqroute.cluster.load;

import io.mqroute.cluster.HostRouter;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import io.mqroute.workload.FioJobFile;
import io.mqroute.workload.JobSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.receptionist.Receptionist;

/**
 * Runs an fio job file in real time from a client node: finds the host routers through the
 * Receptionist, runs the stonewall groups one after the other, each group's clones at once as
 * {@link LoadJob}s (clone i on router i mod n), and gathers their statistics in job order.
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
      LoadJobProtocol.VerifyReport verify) {
    public long requests() {
      return byStatus.values().stream().mapToLong(Long::longValue).sum();
    }

    public long errors() {
      return requests() - byStatus.getOrDefault(Status.OK, 0L);
    }
  }

  private LoadRunner() {}

  /**
   * Waits until at least one host router is listed (reachable) or {@code timeout} passes.
   *
   * @throws TimeoutException when no router showed up in time
   */
  public static List<ActorRef<Request>> awaitRouters(ActorSystem<?> system, Duration timeout)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Receptionist.Listing listing =
          AskPattern.<Receptionist.Command, Receptionist.Listing>ask(
                  system.receptionist(),
                  r -> Receptionist.find(HostRouter.ROUTERS, r),
                  Duration.ofSeconds(5),
                  system.scheduler())
              .toCompletableFuture()
              .get(10, TimeUnit.SECONDS);
      List<ActorRef<Request>> routers =
          new ArrayList<>(listing.getServiceInstances(HostRouter.ROUTERS));
      if (!routers.isEmpty()) {
        routers.sort(Comparator.comparing(r -> r.path().toString()));
        return routers;
      }
      if (System.nanoTime() > deadline) {
        throw new TimeoutException("no host router found within " + timeout.toSeconds() + " s");
      }
      // the Receptionist has no "wait until non-empty": ask again after a short pause (not a test)
      Thread.sleep(200);
    }
  }

  /** Runs {@code file} against {@code routers}; {@code timeout} bounds each group. */
  public static Result run(
      ActorSystem<?> system,
      FioJobFile file,
      List<ActorRef<Request>> routers,
      Duration drainTimeout,
      Duration groupTimeout)
      throws Exception {
    long base = NanoClock.SYSTEM.nanoTime();
    List<JobStats> clones = new ArrayList<>();
    Map<Status, Long> byStatus = new EnumMap<>(Status.class);
    long abandoned = 0;
    long checked = 0;
    long verifyErrors = 0;
    List<String> firstErrors = new ArrayList<>();
    int pid = 0;
    int runSeq = 0;
    for (int group = 0; group < file.groupCount(); group++) {
      List<CompletableFuture<LoadJobProtocol.Finished>> running = new ArrayList<>();
      for (JobSpec j : file.jobs()) {
        for (int c = 0; c < j.numjobs(); c++) {
          pid++;
          if (j.groupId() != group) {
            continue;
          }
          JobStats stats = new JobStats(j.jobInfo(pid));
          clones.add(stats);
          ActorRef<Request> router = routers.get((pid - 1) % routers.size());
          ActorRef<LoadJobProtocol.Command> job =
              system.systemActorOf(
                  LoadJob.create(new LoadJob.Settings(j, pid, stats, router, base, drainTimeout)),
                  "load-" + (runSeq++) + "-" + pid,
                  Props.empty());
          running.add(
              AskPattern.<LoadJobProtocol.Command, LoadJobProtocol.Finished>ask(
                      job, LoadJobProtocol.Run::new, groupTimeout, system.scheduler())
                  .toCompletableFuture());
        }
      }
      for (CompletableFuture<LoadJobProtocol.Finished> f : running) {
        LoadJobProtocol.Finished done =
            f.get(groupTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS);
        done.byStatus().forEach((s, n) -> byStatus.merge(s, n, Long::sum));
        abandoned += done.abandoned();
        checked += done.verify().checked();
        verifyErrors += done.verify().errors();
        done.verify().first().stream()
            .limit(Math.max(0, 10 - firstErrors.size()))
            .forEach(firstErrors::add);
      }
      pid =
          0; // pids count over all jobs in job order, whatever the group: recount in the next group
    }
    // job order: clones were added group by group
    clones.sort(Comparator.comparingInt(s -> s.info().pid()));
    return new Result(
        clones,
        Map.copyOf(byStatus),
        abandoned,
        NanoClock.SYSTEM.nanoTime() - base,
        new LoadJobProtocol.VerifyReport(checked, verifyErrors, List.copyOf(firstErrors)));
  }
}
