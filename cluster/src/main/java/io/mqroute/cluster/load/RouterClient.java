package io.mqroute.cluster.load;

import io.mqroute.actors.machine.FlowProtocol.Route;
import io.mqroute.actors.machine.JobProtocol;
import io.mqroute.cluster.link.NodeLink;
import io.mqroute.cluster.load.RouterClientProtocol.Abandon;
import io.mqroute.cluster.load.RouterClientProtocol.CheckHost;
import io.mqroute.cluster.load.RouterClientProtocol.Command;
import io.mqroute.cluster.load.RouterClientProtocol.Flush;
import io.mqroute.cluster.load.RouterClientProtocol.ForJob;
import io.mqroute.cluster.load.RouterClientProtocol.FromHost;
import io.mqroute.cluster.load.RouterClientProtocol.GetStatuses;
import io.mqroute.cluster.load.RouterClientProtocol.HostLives;
import io.mqroute.cluster.load.RouterClientProtocol.Submitted;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * A load client's router, as the model's job sees it: it takes the job's {@link Route}s and is the
 * transport to a host node's router entry ({@code HostRouter.ROUTERS}). What arrives while it
 * handles one message leaves as one {@link RequestBatch} (the job issues its whole depth in one
 * go), the host answers with {@link CompletionBatch}es, and each completion goes back to its
 * request's {@code replyTo} (the job). On the wire the clone's pid is its file (as fio gives each
 * clone a file of its own) and its CPU, so that clones spread over the host's view of CPUs.
 *
 * <p>Exactly one end per request: the host's completion, or, when the host is lost — its router
 * left the cluster ({@link Terminated}), or it answered none of the requests outstanding for {@code
 * hostTimeout} ({@value #FIRST_ANSWER_FACTOR} times that before its first answer) — ECONNABORTED
 * for what was sent (the host may have had it done: its fate is unknown, as fuse_abort_conn ends a
 * dead connection's requests) and ENOTCONN for what never left this process; the job is then told
 * to {@link JobProtocol.Terminate terminate}. A request the job gave up on ({@link Abandon}, after
 * its stall limit) ends with ECONNABORTED too. A completion that comes after that is dropped. The
 * submission latency fio calls slat is, here, the time a request waited for its batch to leave: the
 * device's clock says nothing about this process's.
 */
final class RouterClient extends AbstractBehavior<RouterClientProtocol.Command> {

  private record Sent(Request request, long sentNanos) {}

  /**
   * How many host timeouts a host may take to give its first answer: the first batch opens the
   * ordinary-message connection (a TLS handshake), which took more than a second on a starved
   * 2-core machine (ClusterDemoTest); a host killed before it answered anything is then found lost
   * after 15 s with the default host timeout, not at the stall limit or by membership.
   */
  static final int FIRST_ANSWER_FACTOR = 10;

  /**
   * How often per host timeout the silence is checked: a loss is found at most 1/10 of the timeout
   * late (150 ms of the default 1.5 s), so a killed host reaches the load within 1.65 s.
   */
  static final int CHECKS_PER_TIMEOUT = 10;

  /** Wire messages to other nodes: over the node link when there is one (NodeLink). */
  private final NodeLink.Tell wire;

  private final ActorRef<Request> host;
  private final ActorRef<CompletionBatch> replies;
  private final int pid;
  private final long hostTimeoutNanos;
  // how often CheckHost looks at the silence (see CHECKS_PER_TIMEOUT)
  private final Duration checkEvery;
  private final TimerScheduler<Object> timers;
  // when the host was last heard from: a completion, or the moment requests became outstanding
  private long lastHeard;
  private final NanoClock clock = NanoClock.SYSTEM;
  private final HashMap<Long, Sent> inFlight = new HashMap<>();
  // the job's requests for the next Flush
  private final ArrayList<Request> outbox = new ArrayList<>();
  private final Map<Status, Long> byStatus = new EnumMap<>(Status.class);
  private ActorRef<JobProtocol.Command> job;
  private boolean flushPending;
  private boolean hostGone;
  private boolean heardOnce;

  /**
   * @param hostTimeout how long the host may answer none of the outstanding requests before it is
   *     taken as lost (zero: only when its router leaves the cluster)
   */
  static Behavior<Object> create(ActorRef<Request> host, int pid, Duration hostTimeout) {
    // timers outermost: their messages reach the transformation as the Commands they carry
    return Behaviors.withTimers(
        t ->
            Behaviors.transformMessages(
                Object.class,
                Behaviors.<Command>setup(ctx -> new RouterClient(ctx, t, host, pid, hostTimeout)),
                // its ref is the job's router: the job's Route comes as it is
                pf ->
                    pf.match(Command.class, c -> c)
                        .match(Route.class, r -> new Submitted(r.request()))));
  }

  private RouterClient(
      ActorContext<Command> ctx,
      TimerScheduler<Object> timers,
      ActorRef<Request> host,
      int pid,
      Duration hostTimeout) {
    super(ctx);
    this.wire = NodeLink.of(ctx.getSystem());
    this.host = host;
    this.pid = pid;
    this.timers = timers;
    this.hostTimeoutNanos = hostTimeout.toNanos();
    this.checkEvery = Duration.ofNanos(Math.max(1_000_000, hostTimeoutNanos / CHECKS_PER_TIMEOUT));
    // completions one at a time too (the same ref): whatever answers a batch singly is understood
    ctx.messageAdapter(Completion.class, c -> new FromHost(List.of(c)));
    this.replies = ctx.messageAdapter(CompletionBatch.class, b -> new FromHost(b.completions()));
    // the host's keep-alive while it holds requests it has not answered (a slow device)
    ctx.messageAdapter(HostAlive.class, a -> HostLives.INSTANCE);
    ctx.watch(host);
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Submitted.class, m -> onRoute(m.request()))
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessageEquals(
            HostLives.INSTANCE,
            () -> {
              if (!hostGone && !inFlight.isEmpty()) {
                heard();
              }
              return this;
            })
        .onMessage(
            FromHost.class,
            b -> {
              b.completions().forEach(this::complete);
              return this;
            })
        .onMessage(
            ForJob.class,
            m -> {
              job = m.job();
              return this;
            })
        .onMessage(
            Abandon.class,
            m -> {
              long n = endAll();
              m.replyTo().tell(n);
              return this;
            })
        .onMessage(
            GetStatuses.class,
            m -> {
              m.replyTo().tell(Map.copyOf(byStatus));
              return this;
            })
        .onMessageEquals(CheckHost.INSTANCE, this::onCheckHost)
        .onSignal(Terminated.class, t -> onHostGone("left the cluster"))
        .build();
  }

  private Behavior<Command> onRoute(Request r) {
    long now = clock.nanoTime();
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.LOAD_SUBMIT, r.submitNanos());
    }
    if (hostGone) {
      end(r, new Completion(r.id(), Status.ENOTCONN, r.submitNanos(), now, now, -1));
      return this;
    }
    if (inFlight.isEmpty()) {
      lastHeard = now; // the silence that counts starts now, not at the last answer
      // before the host's first answer the bound is FIRST_ANSWER_FACTOR times longer: the first
      // batch also opens the (TLS) connection (see onCheckHost)
      if (hostTimeoutNanos > 0 && !timers.isTimerActive(CheckHost.INSTANCE)) {
        timers.startTimerWithFixedDelay(CheckHost.INSTANCE, checkEvery);
      }
    }
    inFlight.put(r.id(), new Sent(r, 0));
    outbox.add(r);
    if (!flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
    return this;
  }

  /** The host's entry adapts {@link RequestBatch} too: the same ref, typed for batches. */
  @SuppressWarnings("unchecked")
  private Behavior<Command> onFlush() {
    flushPending = false;
    if (outbox.isEmpty()) {
      return this;
    }
    long now = clock.nanoTime();
    List<Request> batch = new ArrayList<>(outbox.size());
    for (Request r : outbox) {
      inFlight.computeIfPresent(r.id(), (id, s) -> new Sent(s.request(), now));
      if (RequestTrace.ON) {
        RequestTrace.mark(RequestTrace.LOAD_OUT, r.submitNanos());
      }
      // the clone's pid as its file and its CPU; answered to the batch's replyTo
      batch.add(
          new Request(
              r.id(),
              r.op(),
              pid,
              r.offset(),
              r.length(),
              r.background(),
              pid,
              r.submitNanos(),
              null,
              r.carriesData(),
              r.data()));
    }
    outbox.clear();
    ActorRef<RequestBatch> to = (ActorRef<RequestBatch>) (ActorRef<?>) host;
    RequestBatch.split(batch, replies).forEach(b -> wire.tell(to, b));
    return this;
  }

  /** The host answered or said it holds our requests (HostAlive): its silence starts again. */
  private void heard() {
    lastHeard = clock.nanoTime();
    if (!heardOnce) {
      heardOnce = true;
      if (hostTimeoutNanos > 0 && !inFlight.isEmpty()) {
        timers.startTimerWithFixedDelay(CheckHost.INSTANCE, checkEvery);
      }
    }
  }

  private void complete(Completion c) {
    Sent s = inFlight.remove(c.id());
    if (s == null) {
      return; // ended already (host gone, or abandoned)
    }
    if (RequestTrace.ON) {
      RequestTrace.mark(RequestTrace.LOAD_DONE, s.request().submitNanos());
    }
    heard();
    long dispatched = s.sentNanos() > 0 ? s.sentNanos() : c.submitNanos();
    end(
        s.request(),
        new Completion(
            c.id(),
            c.status(),
            s.request().submitNanos(),
            dispatched,
            c.completeNanos(),
            c.queue(),
            c.data()));
  }

  private void end(Request r, Completion c) {
    byStatus.merge(c.status(), 1L, Long::sum);
    r.replyTo().tell(c);
  }

  /** Ends what is in flight: ECONNABORTED if it was sent (its fate is unknown), else ENOTCONN. */
  private long endAll() {
    long now = clock.nanoTime();
    long n = inFlight.size();
    for (Sent s : inFlight.values()) {
      Request r = s.request();
      Status st = s.sentNanos() > 0 ? Status.ECONNABORTED : Status.ENOTCONN;
      end(r, new Completion(r.id(), st, r.submitNanos(), now, now, -1));
    }
    inFlight.clear();
    outbox.clear();
    return n;
  }

  private Behavior<Command> onCheckHost() {
    if (inFlight.isEmpty() || hostGone) {
      timers.cancel(CheckHost.INSTANCE);
      return this;
    }
    long silent = clock.nanoTime() - lastHeard;
    if (silent >= (heardOnce ? hostTimeoutNanos : hostTimeoutNanos * FIRST_ANSWER_FACTOR)) {
      return onHostGone(
          String.format(
              Locale.ROOT,
              "answered none of %d requests for %.0f ms",
              inFlight.size(),
              silent / 1e6));
    }
    return this;
  }

  private Behavior<Command> onHostGone(String why) {
    if (hostGone) {
      return this;
    }
    hostGone = true;
    timers.cancel(CheckHost.INSTANCE);
    getContext()
        .getLog()
        .warn(
            "pid {}: the host router {}: taken as lost; its {} requests in flight end (ECONNABORTED"
                + " if sent: their fate is unknown)",
            pid,
            why,
            inFlight.size());
    if (job != null) {
      job.tell(JobProtocol.Terminate.INSTANCE); // first: no more I/O on the completions below
    }
    endAll();
    return this;
  }
}
