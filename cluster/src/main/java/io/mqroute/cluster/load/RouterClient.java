package io.mqroute.cluster.load;

import io.mqroute.actors.machine.FlowProtocol.Route;
import io.mqroute.actors.machine.JobProtocol;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.Terminated;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;

/**
 * A load client's router, as the model's job sees it: it takes the job's {@link Route}s and is the
 * transport to a host node's router entry ({@code HostRouter.ROUTERS}). What arrives while it
 * handles one message leaves as one {@link RequestBatch} (the job issues its whole depth in one
 * go), the host answers with {@link CompletionBatch}es, and each completion goes back to its
 * request's {@code replyTo} (the job). On the wire the clone's pid is its file (as fio gives each
 * clone a file of its own) and its CPU, so that clones spread over the host's view of CPUs.
 *
 * <p>Exactly one end per request: the host's completion, or ENOTCONN when the host's router is gone
 * ({@link Terminated}: the job is told to {@link JobProtocol.Terminate terminate}) or when the job
 * gave up on it ({@link Abandon}, after its stall limit). A completion that comes after that is
 * dropped. The submission latency fio calls slat is, here, the time a request waited for its batch
 * to leave: the device's clock says nothing about this process's.
 */
final class RouterClient extends AbstractBehavior<Object> {

  /** The job this client serves (it is spawned after the client, which is its router). */
  record ForJob(ActorRef<JobProtocol.Command> job) {}

  /**
   * The job stalled: end everything in flight with ENOTCONN, then tell {@code replyTo} how many.
   */
  record Abandon(ActorRef<Long> replyTo) {}

  /** Ends by status so far. */
  record GetStatuses(ActorRef<Map<Status, Long>> replyTo) {}

  private enum Flush {
    INSTANCE
  }

  private record Sent(Request request, long sentNanos) {}

  private final ActorRef<Request> host;
  private final int pid;
  private final NanoClock clock = NanoClock.SYSTEM;
  private final HashMap<Long, Sent> inFlight = new HashMap<>();
  private final ArrayList<Request> outbox = new ArrayList<>();
  private final ArrayList<Request> outboxOwn = new ArrayList<>();
  private final Map<Status, Long> byStatus = new EnumMap<>(Status.class);
  private ActorRef<JobProtocol.Command> job;
  private boolean flushPending;
  private boolean hostGone;

  static Behavior<Object> create(ActorRef<Request> host, int pid) {
    return Behaviors.setup(ctx -> new RouterClient(ctx, host, pid));
  }

  private RouterClient(ActorContext<Object> ctx, ActorRef<Request> host, int pid) {
    super(ctx);
    this.host = host;
    this.pid = pid;
    ctx.watch(host);
  }

  @Override
  public Receive<Object> createReceive() {
    return newReceiveBuilder()
        .onMessage(Route.class, m -> onRoute(m.request()))
        .onMessageEquals(Flush.INSTANCE, this::onFlush)
        .onMessage(
            CompletionBatch.class,
            b -> {
              b.completions().forEach(this::complete);
              return this;
            })
        .onMessage(
            Completion.class,
            c -> {
              complete(c);
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
        .onSignal(Terminated.class, t -> onHostGone())
        .build();
  }

  private Behavior<Object> onRoute(Request r) {
    long now = clock.nanoTime();
    if (hostGone) {
      end(r, new Completion(r.id(), Status.ENOTCONN, r.submitNanos(), now, now, -1));
      return this;
    }
    inFlight.put(r.id(), new Sent(r, 0));
    outboxOwn.add(r);
    outbox.add(
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
    if (!flushPending) {
      flushPending = true;
      getContext().getSelf().tell(Flush.INSTANCE);
    }
    return this;
  }

  /** The host's entry adapts {@link RequestBatch} too: the same ref, typed for batches. */
  @SuppressWarnings("unchecked")
  private Behavior<Object> onFlush() {
    flushPending = false;
    long now = clock.nanoTime();
    for (Request r : outboxOwn) {
      inFlight.computeIfPresent(r.id(), (id, s) -> new Sent(s.request(), now));
    }
    outboxOwn.clear();
    if (!outbox.isEmpty()) {
      ActorRef<RequestBatch> to = (ActorRef<RequestBatch>) (ActorRef<?>) host;
      ActorRef<CompletionBatch> self = getContext().getSelf().narrow();
      RequestBatch.split(outbox, self).forEach(to::tell);
      outbox.clear();
    }
    return this;
  }

  private void complete(Completion c) {
    Sent s = inFlight.remove(c.id());
    if (s == null) {
      return; // ended already (host gone, or abandoned)
    }
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

  private long endAll() {
    long now = clock.nanoTime();
    long n = inFlight.size();
    for (Sent s : inFlight.values()) {
      Request r = s.request();
      end(r, new Completion(r.id(), Status.ENOTCONN, r.submitNanos(), now, now, -1));
    }
    inFlight.clear();
    outbox.clear();
    outboxOwn.clear();
    return n;
  }

  private Behavior<Object> onHostGone() {
    hostGone = true;
    getContext()
        .getLog()
        .warn(
            "pid {}: the host router went away; {} requests in flight end with ENOTCONN",
            pid,
            inFlight.size());
    if (job != null) {
      job.tell(JobProtocol.Terminate.INSTANCE); // first: no more I/O on the completions below
    }
    endAll();
    return this;
  }
}
