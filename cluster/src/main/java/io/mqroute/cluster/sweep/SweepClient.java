package io.mqroute.cluster.sweep;

import io.mqroute.cluster.membership.ClusterEvents;
import io.mqroute.cluster.sweep.SweepClientProtocol.Command;
import io.mqroute.cluster.sweep.SweepClientProtocol.FromWorker;
import io.mqroute.cluster.sweep.SweepClientProtocol.Listed;
import io.mqroute.cluster.sweep.SweepClientProtocol.NoWorkers;
import io.mqroute.cluster.sweep.SweepClientProtocol.Reachability;
import io.mqroute.protocol.SweepMessage;
import io.mqroute.runtime.NanoClock;
import java.io.ByteArrayOutputStream;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.ClusterEvent;

/**
 * The client's side of a sweep ({@code mqroute run --cluster}): finds the workers in the
 * Receptionist ({@link SweepWorker#WORKERS}), learns each one's slots, keeps at most that many runs
 * at each (the backpressure: the rest wait here), reassembles the results and ends when every run
 * has a result or has failed.
 *
 * <p>A worker that becomes unreachable (Pekko's failure detector, seconds) or leaves the listing
 * loses its runs to the others at once: they are deterministic, so running one twice is harmless,
 * and waiting for the Split Brain Resolver to remove the node (20 s) is not needed. A worker lost
 * once is not used again in this sweep (reachable again, it may still be running what it had). A
 * run that a worker reports failed is sent once more, to another worker when there is one; failed
 * again, it is reported, never retried for ever.
 */
public final class SweepClient extends AbstractBehavior<Command> {
  /** How many times a run may fail before it is reported. */
  static final int ATTEMPTS = 2;

  /** Where the sweep is, published by the actor and read by the terminal. */
  public static final class Watch {
    private final AtomicReference<RemoteSweep.Progress> now =
        new AtomicReference<>(RemoteSweep.Progress.NONE);

    public RemoteSweep.Progress now() {
      return now.get();
    }
  }

  private static final class Worker {
    final int slots;
    final Set<Integer> inFlight = new LinkedHashSet<>();
    int done;

    Worker(int slots) {
      this.slots = slots;
    }
  }

  private record Assembly(ActorRef<SweepMessage> worker, int count, ByteArrayOutputStream bytes) {}

  private final List<byte[]> orders;
  private final Duration noWorkers;
  private final CompletableFuture<RemoteSweep.Outcome> outcome;
  private final Watch watch;
  private final TimerScheduler<Command> timers;
  private final ActorRef<SweepMessage> self;
  private final long base;
  private final Deque<Integer> pending = new ArrayDeque<>();
  private final byte[][] results;
  private final String[] failures;
  private final int[] attempts;
  private final long[] sentAt;
  private final long[] roundTrip;
  private final List<Set<ActorRef<SweepMessage>>> failedOn = new ArrayList<>();
  private final Map<Integer, Assembly> assembling = new HashMap<>();
  private final Map<ActorRef<SweepMessage>, Worker> workers = new LinkedHashMap<>();
  private final Map<String, RemoteSweep.Worker> shown = new LinkedHashMap<>();
  private final Set<Address> unreachable = new HashSet<>();
  private final Set<ActorRef<SweepMessage>> lost = new HashSet<>();
  private Set<ActorRef<SweepMessage>> listed = Set.of();
  private int finished;
  private int failed;
  private int resent;

  static Behavior<Command> create(
      List<byte[]> orders,
      Duration noWorkers,
      CompletableFuture<RemoteSweep.Outcome> outcome,
      Watch watch) {
    return Behaviors.setup(
        ctx ->
            Behaviors.withTimers(
                timers -> new SweepClient(ctx, timers, orders, noWorkers, outcome, watch)));
  }

  private SweepClient(
      ActorContext<Command> ctx,
      TimerScheduler<Command> timers,
      List<byte[]> orders,
      Duration noWorkers,
      CompletableFuture<RemoteSweep.Outcome> outcome,
      Watch watch) {
    super(ctx);
    this.orders = List.copyOf(orders);
    this.noWorkers = noWorkers;
    this.outcome = outcome;
    this.watch = watch;
    this.timers = timers;
    // run ids of different clients at one worker must not meet: a random base per sweep
    this.base = (new SecureRandom().nextLong() & 0x3fff_ffffL) << 32;
    this.results = new byte[orders.size()][];
    this.failures = new String[orders.size()];
    this.attempts = new int[orders.size()];
    this.sentAt = new long[orders.size()];
    this.roundTrip = new long[orders.size()];
    for (int i = 0; i < orders.size(); i++) {
      pending.add(i);
      failedOn.add(new HashSet<>());
    }
    this.self = ctx.messageAdapter(SweepMessage.class, FromWorker::new);
    ActorRef<Command> me = ctx.getSelf();
    ClusterEvents.subscribe(
        ctx,
        SweepWorker.WORKERS,
        List.of(ClusterEvent.UnreachableMember.class, ClusterEvent.ReachableMember.class),
        e -> {
          if (e instanceof Receptionist.Listing l) {
            me.tell(new Listed(l.getServiceInstances(SweepWorker.WORKERS)));
          } else if (e instanceof ClusterEvent.UnreachableMember m) {
            me.tell(new Reachability(m.member().address(), false));
          } else if (e instanceof ClusterEvent.ReachableMember m) {
            me.tell(new Reachability(m.member().address(), true));
          }
        });
    timers.startSingleTimer(NoWorkers.INSTANCE, noWorkers);
    publish();
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(FromWorker.class, m -> onWorker(m.message()))
        .onMessage(Listed.class, this::onListed)
        .onMessage(Reachability.class, this::onReachability)
        .onMessageEquals(NoWorkers.INSTANCE, this::onNoWorkers)
        .build();
  }

  private Behavior<Command> onWorker(SweepMessage m) {
    // a client's own messages (hello, run, ack) are not for a client: ignored
    if (m instanceof SweepMessage.Offer o) {
      onOffer(o);
    } else if (m instanceof SweepMessage.Part p) {
      onPart(p);
    } else if (m instanceof SweepMessage.Failed f) {
      onFailed(f);
    }
    return end();
  }

  private Behavior<Command> onListed(Listed l) {
    Set<ActorRef<SweepMessage>> before = listed;
    listed = l.workers();
    for (ActorRef<SweepMessage> w : listed) {
      if (!before.contains(w) && !lost.contains(w) && !unreachable.contains(w.path().address())) {
        w.tell(new SweepMessage.Hello(self));
      }
    }
    for (ActorRef<SweepMessage> w : new ArrayList<>(workers.keySet())) {
      if (!listed.contains(w)) {
        lose(w);
      }
    }
    dispatch();
    return end();
  }

  private Behavior<Command> onReachability(Reachability r) {
    if (r.reachable()) {
      // not used again in this sweep: it may still run what it had, and would refuse more
      return this;
    }
    unreachable.add(r.address());
    for (ActorRef<SweepMessage> w : new ArrayList<>(workers.keySet())) {
      if (w.path().address().equals(r.address())) {
        lose(w);
      }
    }
    dispatch();
    return end();
  }

  private Behavior<Command> onNoWorkers() {
    if (workers.isEmpty()) {
      outcome.completeExceptionally(
          new RemoteSweep.NoWorkers(
              "no sweep worker offered to run anything for "
                  + noWorkers.toSeconds()
                  + " s (is a --role worker node up in the cluster?)"));
      return Behaviors.stopped();
    }
    return this;
  }

  private void onOffer(SweepMessage.Offer o) {
    ActorRef<SweepMessage> w = o.worker();
    if (w == null
        || workers.containsKey(w)
        || lost.contains(w)
        || unreachable.contains(w.path().address())) {
      return;
    }
    workers.put(w, new Worker(o.slots()));
    timers.cancel(NoWorkers.INSTANCE);
    dispatch();
  }

  private void onPart(SweepMessage.Part p) {
    ActorRef<SweepMessage> w = p.worker();
    if (w == null) {
      return;
    }
    w.tell(new SweepMessage.Ack(p.runId(), p.index())); // always: the worker frees what it holds
    int run = run(p.runId());
    Worker state = workers.get(w);
    if (run < 0 || state == null || !state.inFlight.contains(run)) {
      return; // a run that is done, or went elsewhere when this worker was taken as lost
    }
    Assembly a = assembling.get(run);
    if (a == null || !a.worker().equals(w)) {
      if (p.index() != 0) {
        return;
      }
      a = new Assembly(w, p.count(), new ByteArrayOutputStream());
      assembling.put(run, a);
    }
    if (p.count() != a.count() || (long) p.index() * SweepMessage.MAX_CHUNK != a.bytes().size()) {
      assembling.remove(run); // out of order: Artery keeps order, so a broken worker; fail it
      fail(run, w, "result parts out of order");
      return;
    }
    a.bytes().writeBytes(p.bytes());
    if (p.index() + 1 < p.count()) {
      return;
    }
    assembling.remove(run);
    results[run] = a.bytes().toByteArray();
    roundTrip[run] = NanoClock.SYSTEM.nanoTime() - sentAt[run];
    state.inFlight.remove(run);
    state.done++;
    finished++;
    dispatch();
  }

  private void onFailed(SweepMessage.Failed f) {
    int run = run(f.runId());
    Worker state = f.worker() == null ? null : workers.get(f.worker());
    if (run < 0 || state == null || !state.inFlight.contains(run)) {
      return;
    }
    fail(run, f.worker(), f.reason());
    dispatch();
  }

  private void fail(int run, ActorRef<SweepMessage> w, String reason) {
    workers.get(w).inFlight.remove(run);
    attempts[run]++;
    failedOn.get(run).add(w);
    if (attempts[run] >= ATTEMPTS) {
      failures[run] = reason;
      failed++;
      finished++;
    } else {
      resent++;
      pending.addLast(run);
    }
  }

  /** The worker is taken as lost: its runs go back to the front of the queue. */
  private void lose(ActorRef<SweepMessage> w) {
    Worker state = workers.remove(w);
    if (state == null) {
      return;
    }
    lost.add(w);
    List<Integer> runs = new ArrayList<>(state.inFlight);
    for (int i = runs.size() - 1; i >= 0; i--) {
      assembling.remove(runs.get(i));
      pending.addFirst(runs.get(i));
      resent++;
    }
    shown.put(name(w), new RemoteSweep.Worker(state.slots, 0, state.done, true));
    if (workers.isEmpty() && finished < orders.size()) {
      timers.startSingleTimer(NoWorkers.INSTANCE, noWorkers);
    }
  }

  /** Fills every worker's free slots, in the order they offered. */
  private void dispatch() {
    for (Map.Entry<ActorRef<SweepMessage>, Worker> e : workers.entrySet()) {
      ActorRef<SweepMessage> w = e.getKey();
      Worker state = e.getValue();
      while (state.inFlight.size() < state.slots) {
        Integer run = next(w);
        if (run == null) {
          break;
        }
        state.inFlight.add(run);
        sentAt[run] = NanoClock.SYSTEM.nanoTime(); // a measurement for the terminal, not a decision
        w.tell(new SweepMessage.Run(base + run, orders.get(run), self));
      }
    }
    publish();
  }

  /** The first waiting run {@code w} has not failed, unless no other worker could take it. */
  private Integer next(ActorRef<SweepMessage> w) {
    for (Integer run : pending) {
      Set<ActorRef<SweepMessage>> failedAt = failedOn.get(run);
      boolean elsewhere = workers.keySet().stream().anyMatch(o -> !failedAt.contains(o));
      if (!failedAt.contains(w) || !elsewhere) {
        pending.remove(run);
        return run;
      }
    }
    return null;
  }

  private int run(long runId) {
    long i = runId - base;
    return i >= 0 && i < orders.size() ? (int) i : -1;
  }

  private Behavior<Command> end() {
    publish();
    if (finished < orders.size()) {
      return this;
    }
    Map<Integer, String> why = new TreeMap<>();
    for (int i = 0; i < failures.length; i++) {
      if (failures[i] != null) {
        why.put(i, failures[i]);
      }
    }
    outcome.complete(
        new RemoteSweep.Outcome(Arrays.asList(results.clone()), why, roundTrip.clone()));
    return Behaviors.stopped();
  }

  private void publish() {
    int inFlight = 0;
    for (Map.Entry<ActorRef<SweepMessage>, Worker> e : workers.entrySet()) {
      Worker s = e.getValue();
      inFlight += s.inFlight.size();
      shown.put(
          name(e.getKey()), new RemoteSweep.Worker(s.slots, s.inFlight.size(), s.done, false));
    }
    watch.now.set(
        new RemoteSweep.Progress(
            orders.size(),
            finished - failed,
            failed,
            inFlight,
            resent,
            java.util.Collections.unmodifiableMap(new LinkedHashMap<>(shown))));
  }

  private static String name(ActorRef<?> w) {
    Address a = w.path().address();
    return a.host().isDefined() ? a.host().get() + ":" + a.port().get() : a.toString();
  }
}
