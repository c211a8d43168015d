package io.mqroute.cluster.sweep;

import io.mqroute.cluster.membership.ClusterEvents;
import io.mqroute.cluster.sweep.SweepWorkerProtocol.Command;
import io.mqroute.cluster.sweep.SweepWorkerProtocol.FromClient;
import io.mqroute.cluster.sweep.SweepWorkerProtocol.MemberGone;
import io.mqroute.cluster.sweep.SweepWorkerProtocol.Ran;
import io.mqroute.protocol.SweepMessage;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.ClusterEvent;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.typed.Cluster;

/**
 * A worker node's one actor ({@code mqroute node --role worker}): registers with the Receptionist
 * under {@link #WORKERS}, tells each client that says {@link SweepMessage.Hello} how many runs it
 * takes at once (its slots), runs what it is sent on a pool of that many threads ({@link
 * SweepWork}: the runs are CPU-bound simulations, never on the node's dispatcher), and sends each
 * result back in parts, the next when the last is acknowledged, so a megabyte result never floods
 * Artery's queue.
 *
 * <p>The client owns the retries: a run here that fails is reported ({@link SweepMessage.Failed}),
 * never retried; a client whose node leaves the cluster loses what it had here.
 */
public final class SweepWorker extends AbstractBehavior<Command> {
  /** The Receptionist key of every worker's endpoint. */
  public static final ServiceKey<SweepMessage> WORKERS =
      ServiceKey.create(SweepMessage.class, "mqroute-sweep-worker");

  /** A result on its way back: part {@code next} is out, waiting for its ack. */
  private record Outgoing(ActorRef<SweepMessage> client, byte[] result, int count, int next) {}

  private final int slots;
  private final SweepWork work;
  private final ExecutorService pool;
  private final ActorRef<SweepMessage> self;
  private final Map<Long, Outgoing> outgoing = new HashMap<>();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicLong done = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final boolean inCluster;

  /**
   * @param status where the worker's counts go for /status (the node's metrics)
   */
  public static Behavior<Command> create(
      int slots, SweepWork work, Consumer<Supplier<Map<String, Object>>> status) {
    if (slots < 1) {
      throw new IllegalArgumentException("slots must be >= 1, was " + slots);
    }
    return Behaviors.setup(ctx -> new SweepWorker(ctx, slots, work, status));
  }

  private SweepWorker(
      ActorContext<Command> ctx,
      int slots,
      SweepWork work,
      Consumer<Supplier<Map<String, Object>>> status) {
    super(ctx);
    this.slots = slots;
    this.work = work;
    AtomicInteger n = new AtomicInteger();
    this.pool =
        Executors.newFixedThreadPool(
            slots,
            r -> {
              Thread t = new Thread(r, "mqroute-sweep-" + n.incrementAndGet());
              t.setDaemon(true);
              return t;
            });
    ctx.getSystem().getWhenTerminated().thenRun(pool::shutdownNow);
    this.self = ctx.messageAdapter(SweepMessage.class, FromClient::new);
    ctx.getSystem().receptionist().tell(Receptionist.register(WORKERS, self));
    ActorRef<Command> me = ctx.getSelf();
    // the membership events come through a child: the adapter's ref is registered as a service
    ClusterEvents.subscribe(
        ctx,
        null,
        List.of(ClusterEvent.MemberRemoved.class),
        e -> {
          if (e instanceof ClusterEvent.MemberRemoved m) {
            me.tell(new MemberGone(m.member().address()));
          }
        });
    this.inCluster =
        ctx.getSystem().settings().config().getString("pekko.actor.provider").equals("cluster");
    status.accept(this::status);
  }

  /** What /status shows of this worker (read from the management thread). */
  private Map<String, Object> status() {
    Map<String, Object> s = new TreeMap<>();
    s.put("slots", (long) slots);
    s.put("running", (long) running.get());
    s.put("runs_done", done.get());
    s.put("runs_failed", failed.get());
    return s;
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(FromClient.class, m -> onClient(m.message()))
        .onMessage(Ran.class, this::onRan)
        .onMessage(MemberGone.class, this::onGone)
        .build();
  }

  private Behavior<Command> onClient(SweepMessage m) {
    // a worker's own messages (offer, part, failed), sent here by mistake: nothing to do
    if (m instanceof SweepMessage.Hello h) {
      if (h.client() != null) {
        h.client().tell(new SweepMessage.Offer(self, slots));
      }
    } else if (m instanceof SweepMessage.Run r) {
      start(r);
    } else if (m instanceof SweepMessage.Ack a) {
      onAck(a);
    }
    return this;
  }

  private void start(SweepMessage.Run r) {
    if (r.client() == null) {
      return;
    }
    if (running.get() >= slots) {
      // a client keeps at most `slots` runs here: more is a client of another build, or a bug
      r.client()
          .tell(new SweepMessage.Failed(r.runId(), "worker busy (" + slots + " slots)", self));
      return;
    }
    running.incrementAndGet();
    long id = r.runId();
    ActorRef<SweepMessage> client = r.client();
    byte[] order = r.order();
    getContext()
        .pipeToSelf(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    return work.run(order);
                  } catch (SweepWork.Failed e) {
                    throw new java.util.concurrent.CompletionException(e);
                  }
                },
                pool),
            (result, err) -> {
              if (err == null) {
                return new Ran(id, client, result, null);
              }
              Throwable c = err.getCause() != null ? err.getCause() : err;
              String why =
                  c instanceof SweepWork.Failed
                      ? c.getMessage()
                      : c.getClass().getSimpleName() + ": " + c.getMessage();
              return new Ran(id, client, null, why);
            });
  }

  private Behavior<Command> onRan(Ran r) {
    running.decrementAndGet();
    if (r.failure() != null) {
      failed.incrementAndGet();
      r.client().tell(new SweepMessage.Failed(r.runId(), oneLine(r.failure()), self));
      return this;
    }
    done.incrementAndGet();
    if (!member(r.client().path().address())) {
      return this; // its client left while it ran: nobody to send it to
    }
    int count =
        Math.max(1, (r.result().length + SweepMessage.MAX_CHUNK - 1) / SweepMessage.MAX_CHUNK);
    send(r.runId(), new Outgoing(r.client(), r.result(), count, 0));
    return this;
  }

  private void onAck(SweepMessage.Ack a) {
    Outgoing o = outgoing.get(a.runId());
    if (o == null || a.index() != o.next()) {
      return; // a stale or stray ack
    }
    if (o.next() + 1 >= o.count()) {
      outgoing.remove(a.runId());
      return;
    }
    send(a.runId(), new Outgoing(o.client(), o.result(), o.count(), o.next() + 1));
  }

  /** Sends part {@code o.next()} and waits for its ack. */
  private void send(long runId, Outgoing o) {
    outgoing.put(runId, o);
    int from = o.next() * SweepMessage.MAX_CHUNK;
    int to = Math.min(o.result().length, from + SweepMessage.MAX_CHUNK);
    o.client()
        .tell(
            new SweepMessage.Part(
                runId, o.next(), o.count(), Arrays.copyOfRange(o.result(), from, to), self));
  }

  /** Whether {@code a} is a member now (outside a cluster, always: tests). */
  private boolean member(Address a) {
    if (!inCluster) {
      return true;
    }
    for (Member m : Cluster.get(getContext().getSystem()).state().getMembers()) {
      if (m.address().equals(a)) {
        return true;
      }
    }
    return false;
  }

  /** A node that left: results still on their way to a client there are dropped. */
  private Behavior<Command> onGone(MemberGone g) {
    outgoing.values().removeIf(o -> o.client().path().address().equals(g.address()));
    return this;
  }

  private static String oneLine(String s) {
    String line = s == null ? "" : s.strip().lines().findFirst().orElse("");
    return line.length() <= 500 ? line : line.substring(0, 497) + "...";
  }
}
