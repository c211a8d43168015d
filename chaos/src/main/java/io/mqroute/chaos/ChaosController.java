package io.mqroute.chaos;

import io.mqroute.actors.cpu.FallbackCpu;
import io.mqroute.actors.machine.CoreProtocol;
import io.mqroute.actors.machine.Fault;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.JobProtocol;
import io.mqroute.actors.machine.MachineProtocol;
import io.mqroute.actors.machine.Perturbation;
import io.mqroute.actors.machine.PerturbationProtocol;
import io.mqroute.actors.machine.PerturbationProtocol.BeforeGroup;
import io.mqroute.actors.machine.PerturbationProtocol.Collect;
import io.mqroute.actors.machine.PerturbationProtocol.Command;
import io.mqroute.actors.machine.QueueKind;
import io.mqroute.chaos.ChaosControllerProtocol.Arrive;
import io.mqroute.chaos.ChaosControllerProtocol.Close;
import io.mqroute.chaos.ChaosControllerProtocol.Flip;
import io.mqroute.chaos.ChaosControllerProtocol.Scripted;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.runtime.NanoClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.AbstractBehavior;
import org.apache.pekko.actor.typed.javadsl.ActorContext;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.javadsl.Receive;
import org.apache.pekko.actor.typed.javadsl.TimerScheduler;

/**
 * Drives a chaos run: generic/650's hotplug loop (every interval a random hotpluggable CPU is
 * written a random 0 or 1), scripted events, and random fault windows — all from the run's "chaos"
 * random stream, so the seed fixes them. Before the final job group it stops, closes every fault
 * window and brings every CPU back online (generic/650's cleanup). Every change is logged in the
 * event syntax, so the log replays.
 */
public final class ChaosController extends AbstractBehavior<Command> {
  private final ChaosProfile profile;
  private final Perturbation.Handles machine;
  private final CpuTopology topology;
  private final TimerScheduler<Command> timers;
  private final NanoClock clock;
  private final RandomSource random;
  private final long start;
  private final boolean[] online;

  /** A group has started: the next BeforeGroup follows an unmount and a mount. */
  private boolean mounted;

  /**
   * The queues' server threads are fuse-over-io-uring ring threads, each pinned to its queue's CPU.
   */
  private final boolean ringThreads;

  /** Per queue, the CPU its server thread runs on (libfuse pins it to the queue's CPU). */
  private final int[] serverCpu;

  private final int[] cpuToNode;

  /** Open windows per (kind, queue): a fault ends when its last window closes. */
  private final Map<Long, Integer> open = new HashMap<>();

  private final List<String> log = new ArrayList<>();
  private long hotplug;
  private long faults;
  private boolean settled;

  private long closeSerial;

  public static Perturbation perturbation(ChaosProfile profile) {
    return handles ->
        Behaviors.setup(
            ctx -> Behaviors.withTimers(t -> new ChaosController(ctx, t, profile, handles)));
  }

  private ChaosController(
      ActorContext<Command> ctx,
      TimerScheduler<Command> timers,
      ChaosProfile profile,
      Perturbation.Handles machine) {
    super(ctx);
    this.profile = profile;
    this.machine = machine;
    this.topology = profile.machine().topology();
    this.ringThreads = profile.machine().queues().kind() == QueueKind.PER_CPU;
    this.timers = timers;
    this.clock = NanoClock.of(ctx.getSystem());
    this.random = machine.random();
    this.start = clock.nanoTime();
    this.online = new boolean[machine.cores().size()];
    Arrays.fill(online, true);
    this.serverCpu = machine.queueHomeCpu().clone();
    this.cpuToNode = IntStream.range(0, online.length).map(topology::cpuToNode).toArray();
    if (profile.hotplugIntervalNanos() > 0 && !profile.hotpluggable().isEmpty()) {
      timers.startTimerWithFixedDelay(
          "flip", new Flip(), Duration.ofNanos(profile.hotplugIntervalNanos()));
    }
    for (int i = 0; i < profile.events().size(); i++) {
      timers.startSingleTimer(
          "event-" + i, new Scripted(i), Duration.ofNanos(profile.events().get(i).atNanos()));
    }
    for (int i = 0; i < profile.faults().size(); i++) {
      if (profile.faults().get(i).enabled()) {
        scheduleArrival(i);
      }
    }
  }

  @Override
  public Receive<Command> createReceive() {
    return newReceiveBuilder()
        .onMessage(Flip.class, f -> onFlip())
        .onMessage(Scripted.class, s -> apply(profile.events().get(s.index())))
        .onMessage(Arrive.class, this::onArrive)
        .onMessage(Close.class, this::onClose)
        .onMessage(BeforeGroup.class, this::onBeforeGroup)
        .onMessage(Collect.class, this::onCollect)
        .build();
  }

  /**
   * generic/650: pick a hotpluggable CPU, write a random 0 or 1 to its online file (a no-op if it
   * already is).
   */
  private Behavior<Command> onFlip() {
    int cpu = profile.hotpluggable().get(random.nextInt(profile.hotpluggable().size()));
    boolean up = random.nextInt(2) == 1;
    long now = clock.nanoTime() - start;
    if (up != online[cpu]) {
      apply(up ? ChaosEvent.online(now, cpu) : ChaosEvent.offline(now, cpu));
    }
    return this;
  }

  private void scheduleArrival(int i) {
    FaultSchedule f = profile.faults().get(i);
    long gap = Math.max(1, Math.round(random.nextExponential(f.everyNanos())));
    timers.startSingleTimer("fault-" + i, new Arrive(i), Duration.ofNanos(gap));
  }

  private Behavior<Command> onArrive(Arrive a) {
    FaultSchedule f = profile.faults().get(a.schedule());
    int queue = random.nextInt(machine.queues().size());
    apply(
        ChaosEvent.fault(
            clock.nanoTime() - start, queue, new Fault(f.kind(), f.value()), f.forNanos()));
    scheduleArrival(a.schedule());
    return this;
  }

  private Behavior<Command> apply(ChaosEvent e) {
    if (settled) {
      return this; // the cleanup has run: nothing more happens to the machine
    }
    switch (e.action()) {
      case OFFLINE -> {
        if (!online[e.target()]) {
          return this;
        }
        online[e.target()] = false;
        machine
            .cores()
            .get(e.target())
            .tell(new CoreProtocol.SetOnline(false, machine.cores().get(fallback(e.target()))));
        machine
            .router()
            .tell(
                new FlowProtocol.CpuHotplug(
                    e.target(), false, profile.semantics() == Semantics.HOTPLUG_AWARE));
        hotplug++;
        tellJobs();
        for (int q = 0; q < serverCpu.length; q++) {
          if (serverCpu[q]
              == e.target()) { // migrate_tasks breaks the thread's affinity and moves it
            moveServer(q, ringThreads ? fallbackPinned(e.target()) : fallback(e.target()));
          }
        }
      }
      case ONLINE -> {
        if (online[e.target()]) {
          return this;
        }
        bringOnline(e.target());
      }
      case FAULT -> {
        Fault f = e.fault();
        machine.queues().get(e.target()).tell(new FlowProtocol.QueueFault(f));
        faults++;
        if (f.kind() != Fault.Kind.LOSE && e.forNanos() > 0) {
          long key = key(f.kind(), e.target());
          open.merge(key, 1, Integer::sum);
          timers.startSingleTimer(
              new Close(f.kind(), e.target(), closeSerial++), Duration.ofNanos(e.forNanos()));
        }
      }
    }
    log.add(e.toString());
    return this;
  }

  /**
   * kernel: a server thread moved off its CPU stays where it is when the CPU returns (its affinity
   * is not restored, kernel notes §5.1); hotplug-aware: it goes back, as managed IRQs and per-CPU
   * kthreads do.
   */
  private void bringOnline(int cpu) {
    online[cpu] = true;
    machine.cores().get(cpu).tell(new CoreProtocol.SetOnline(true, null));
    machine.router().tell(new FlowProtocol.CpuHotplug(cpu, true, false));
    hotplug++;
    tellJobs();
    if (profile.semantics() == Semantics.HOTPLUG_AWARE) {
      for (int q = 0; q < serverCpu.length; q++) {
        if (machine.queueHomeCpu()[q] == cpu && serverCpu[q] != cpu) {
          moveServer(q, cpu);
        }
      }
    }
  }

  /**
   * libfuse's fuse_uring_start pins each ring thread to its qid's CPU again; other servers are not
   * pinned.
   */
  private void repinServers() {
    if (!ringThreads) {
      return;
    }
    for (int q = 0; q < serverCpu.length; q++) {
      int home = machine.queueHomeCpu()[q];
      if (online[home] && serverCpu[q] != home) {
        moveServer(q, home);
      }
    }
  }

  private void moveServer(int queue, int cpu) {
    serverCpu[queue] = cpu;
    machine.queues().get(queue).tell(new FlowProtocol.MoveServer(cpu, machine.cores().get(cpu)));
  }

  private static long key(Fault.Kind kind, int queue) {
    return ((long) kind.ordinal() << 32) | queue;
  }

  private Behavior<Command> onClose(Close c) {
    long key = key(c.kind(), c.queue());
    Integer n = open.get(key);
    if (n == null) {
      return this; // closed by the cleanup already
    }
    if (n > 1) {
      open.put(key, n - 1);
    } else {
      open.remove(key);
      machine.queues().get(c.queue()).tell(new FlowProtocol.QueueFault(new Fault(c.kind(), 0)));
    }
    return this;
  }

  /** Where the tasks of a dying CPU go (CPU 0 never goes offline, so there always is one). */
  private int fallback(int cpu) {
    return fallback(cpu, null);
  }

  /**
   * Where a thread pinned to the dying CPU goes: a ring thread is pinned to its qid's CPU (libfuse
   * fuse_uring_set_thread_core), so select_fallback_rq finds no allowed CPU, widens the affinity
   * and takes the lowest online CPU.
   */
  private int fallbackPinned(int cpu) {
    return fallback(cpu, new int[] {cpu});
  }

  private int fallback(int cpu, int[] allowed) {
    int c = FallbackCpu.of(cpu, online.length, x -> online[x], topology::cpuToNode, allowed);
    if (c < 0) {
      throw new IllegalStateException("no online CPU left");
    }
    return c;
  }

  private void tellJobs() {
    JobProtocol.Hotplug h = new JobProtocol.Hotplug(online.clone(), cpuToNode);
    machine.jobs().forEach(j -> j.tell(h));
  }

  /**
   * Before every group after the first there was an unmount and a mount: a new FUSE session starts
   * its ring threads pinned to their own CPUs again (those online). Before the last group (the
   * per-CPU check): stop, close every fault window, all CPUs back online.
   */
  private Behavior<Command> onBeforeGroup(BeforeGroup b) {
    if (mounted) {
      repinServers();
    }
    mounted = true;
    if (b.last() && !settled) {
      long now = clock.nanoTime() - start;
      timers.cancelAll();
      for (Long key : List.copyOf(open.keySet())) {
        Fault.Kind kind = Fault.Kind.values()[(int) (key >>> 32)];
        int queue = (int) (key & 0xFFFFFFFFL);
        machine.queues().get(queue).tell(new FlowProtocol.QueueFault(new Fault(kind, 0)));
      }
      open.clear();
      for (int cpu = 0; cpu < online.length; cpu++) {
        apply(ChaosEvent.online(now, cpu)); // logged; a no-op for a CPU that is online
      }
      settled = true;
      repinServers();
    }
    b.replyTo().tell(new MachineProtocol.Proceed(b.group()));
    return this;
  }

  private Behavior<Command> onCollect(Collect c) {
    c.replyTo()
        .tell(
            new MachineProtocol.GotPerturbation(
                new PerturbationProtocol.Report(List.copyOf(log), hotplug, faults)));
    return this;
  }
}
