package io.mqroute.cluster.load;

import io.mqroute.actors.cpu.CpuCosts;
import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.Job;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.JobProtocol;
import io.mqroute.actors.machine.MachineProtocol;
import io.mqroute.actors.machine.PassThroughCore;
import io.mqroute.cluster.load.LoadCloneProtocol.Abandoned;
import io.mqroute.cluster.load.LoadCloneProtocol.Command;
import io.mqroute.cluster.load.LoadCloneProtocol.Finished;
import io.mqroute.cluster.load.LoadCloneProtocol.FromJob;
import io.mqroute.cluster.load.LoadCloneProtocol.Run;
import io.mqroute.cluster.load.LoadCloneProtocol.Statuses;
import io.mqroute.cluster.load.LoadCloneProtocol.VerifyReport;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * One fio job clone of {@code mqroute load}: the model's {@link Job} — the same issuer, offsets,
 * block sizes, rate and think time, verify phase and exactly-once check as a virtual-time run — on
 * a {@link PassThroughCore} with zero CPU costs (the real CPU pays them), its router a {@link
 * RouterClient} to a host node, and real bytes when the job verifies ({@link LoadData}). This actor
 * is the job's "machine": it hears its end (or its stall) and answers {@link Run}.
 */
final class LoadClone extends AbstractBehavior<LoadCloneProtocol.Command> {

  private final JobStats stats;
  private final LoadData data;
  private final ActorRef<JobProtocol.Command> job;
  private final ActorRef<Object> client;
  private final List<String> violations = new ArrayList<>();
  private ActorRef<Finished> replyTo;
  private long abandoned;

  /**
   * @param plan the clone's plan (as {@code mqroute run} makes it)
   * @param pid the clone's pid: the wire's CPU, and the seed of its streams and blocks
   * @param stallLimit how long requests may be outstanding without a single completion before the
   *     clone gives up on them (ECONNABORTED, counted as abandoned)
   * @param hostTimeout how long the host may answer none of them before it is taken as lost (see
   *     {@link RouterClient})
   * @param data its bytes when it verifies, else null
   */
  static Behavior<Command> create(
      JobPlan plan,
      int pid,
      long seed,
      JobStats stats,
      ActorRef<Request> host,
      Duration stallLimit,
      Duration hostTimeout,
      LoadData data) {
    return Behaviors.setup(
        ctx -> new LoadClone(ctx, plan, pid, seed, stats, host, stallLimit, hostTimeout, data));
  }

  private LoadClone(
      ActorContext<Command> ctx,
      JobPlan plan,
      int pid,
      long seed,
      JobStats stats,
      ActorRef<Request> host,
      Duration stallLimit,
      Duration hostTimeout,
      LoadData data) {
    super(ctx);
    this.stats = stats;
    this.data = data;
    this.client = ctx.spawn(RouterClient.create(host, pid, hostTimeout), "router-client");
    ActorRef<CoreProtocol.Command> core = ctx.spawn(PassThroughCore.create(), "core");
    ActorRef<MachineProtocol.Command> me =
        ctx.messageAdapter(MachineProtocol.Command.class, FromJob::new);
    this.job =
        ctx.spawn(
            Job.create(
                plan,
                stats,
                SeededRandom.stream(seed, "load-workload-" + pid),
                SeededRandom.stream(seed, "load-arrivals-" + pid),
                List.of(core),
                client.<FlowProtocol.RouterCommand>narrow(),
                me,
                CpuCosts.NONE,
                stallLimit.toNanos(),
                null,
                data,
                null, // in no fio flow
                -1), // it issues its requests itself (no io-wq worker)
            "job");
    client.tell(new RouterClientProtocol.ForJob(job));
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(
            Run.class,
            r -> {
              replyTo = r.replyTo();
              job.tell(JobProtocol.Start.INSTANCE);
              return this;
            })
        .onMessage(FromJob.class, this::onJob)
        .onMessage(
            Abandoned.class,
            a -> {
              abandoned += a.count();
              return askStatuses();
            })
        .onMessage(
            Statuses.class,
            s -> {
              replyTo.tell(
                  new Finished(
                      stats,
                      s.byStatus(),
                      abandoned,
                      List.copyOf(violations),
                      data == null ? VerifyReport.NONE : data.report()));
              return Behaviors.stopped();
            })
        .build();
  }

  /** What the job tells its machine: its end, its stall, a broken exactly-once check. */
  private Behavior<Command> onJob(FromJob m) {
    if (m.message() instanceof MachineProtocol.JobDone) {
      return askStatuses();
    }
    if (m.message() instanceof MachineProtocol.Violation v) {
      violations.add(v.what());
      return this;
    }
    if (m.message() instanceof MachineProtocol.Stalled s) {
      getContext()
          .getLog()
          .warn(
              "{} requests unanswered for the stall limit: ended with ECONNABORTED",
              s.outstanding().size());
      getContext()
          .ask(
              Long.class,
              client,
              Duration.ofSeconds(30),
              RouterClientProtocol.Abandon::new,
              (n, err) -> new Abandoned(n == null ? 0 : n));
    }
    return this;
  }

  /** The client counted every end: after the job's last one, its counts are complete. */
  @SuppressWarnings("unchecked")
  private Behavior<Command> askStatuses() {
    getContext()
        .ask(
            (Class<Map<Status, Long>>) (Class<?>) Map.class,
            client,
            Duration.ofSeconds(30),
            RouterClientProtocol.GetStatuses::new,
            (m, err) -> new Statuses(m == null ? Map.of() : m));
    return this;
  }
}
