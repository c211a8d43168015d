package io.mqroute.actors.machine;

import io.mqroute.actors.cpu.CState;
import io.mqroute.actors.cpu.CStateTable;
import io.mqroute.actors.cpu.CpuCosts;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.device.Device;
import io.mqroute.actors.device.Devices;
import io.mqroute.actors.device.PerOpDevice;
import io.mqroute.config.StrictConfig;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.selector.GroupCpusEvenly;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.strategy.BackgroundAdmission;
import io.mqroute.policies.strategy.Durations;
import io.mqroute.policies.strategy.Strategies;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Op;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * Builds a {@link MachineSpec} from HOCON. Keys and defaults:
 *
 * <pre>
 * machine { numa-nodes = 1, cores-per-node = 4,
 *           cpu { submit-cost = 1.5us, server-cost = 3us, worker-cost = (server-cost),
 *                 completion-cost = 1us, wake-cost = 3us,
 *                 reap-cost = 0.5us, switch-cost = 1.5us, migrate-cost = 1us,
 *                 sleep-wake-cost = 0, ipi-cost = 0,
 *                 c-states = skx | none | "NAME:EXIT:RESIDENCY, ...",
 *                 governor = performance | schedutil,
 *                 min-freq-ratio = 0.4 },
 *           kernel { io-uring-punt = inline | io-wq, vcpu-pack = off,
 *                    vcpu-pack-sleeping-waker = off, dev-fuse-read = at-wake | at-run } }
 * queues  { kind = per-cpu | virtio | independent | dev-fuse, count = (CPUs), registered = [..],
 *           ring-size = 128, pollers = 1 (dev-fuse: 10, libfuse's max_threads),
 *           full-ring = refill-on-completion, enqueue-error = fail, enomem-probability = 0,
 *           dispatch = fifo }
 * router  { selector = static-cpu (per-cpu queues) | single (dev-fuse) | mq-map (others),
 *           selector-params { }, admission = per-queue (dev-fuse: global), max-background = 12,
 *           congestion-threshold = 9, pending-queue = off | (cost) }
 * wake = waiter-cpu | completing-cpu
 * device = "exponential(40us)"
 * device-ops { unlink = "exponential(60us)", ... }   (none: every request kind takes device)
 * stall-limit = 1s
 * </pre>
 */
public final class MachineSpecParser {
  /**
   * Refusal of ENOMEM on a ring queue, for machine blocks and chaos profiles:
   * fuse_uring_queue_fuse_req allocates nothing, a request without a free ring entry waits in
   * fuse_req_queue.
   */
  public static final String NO_URING_ENOMEM =
      "ENOMEM is virtqueue_add_sgs failing, which only virtio queues have;"
          + " per-cpu fuse-over-io-uring queues have no such path (ring-full models a ring without free entries)";

  public static final List<String> KEYS =
      List.of("machine", "queues", "router", "wake", "device", "device-ops", "stall-limit");

  /**
   * {@code device-ops}: the request kinds a server may be given its own time for (FORGET has no
   * reply and is never sent on a request queue).
   */
  static final List<String> DEVICE_OP_KEYS =
      Arrays.stream(Op.values())
          .filter(Op::expectsReply)
          .map(o -> o.name().toLowerCase(Locale.ROOT))
          .toList();

  /** intel_idle's Skylake-SP table (skx_cstates): exit latency and target residency. */
  public static final List<CState> SKX_CSTATES =
      List.of(
          new CState("C1", 2_000, 2_000),
          new CState("C1E", 10_000, 20_000),
          new CState("C6", 133_000, 600_000));

  private static final List<String> CPU_KEYS =
      List.of(
          "submit-cost",
          "server-cost",
          "worker-cost",
          "completion-cost",
          "wake-cost",
          "reap-cost",
          "switch-cost",
          "migrate-cost",
          "sleep-wake-cost",
          "ipi-cost",
          "c-states",
          "governor",
          "min-freq-ratio");

  /** {@code 2.000s}, {@code 6.5us}: a sum of costs, rounded. */
  private static String approximately(long nanos) {
    if (nanos >= 1_000_000_000L) {
      return String.format(Locale.ROOT, "%.3fs", nanos / 1e9);
    }
    if (nanos >= 1_000_000L) {
      return String.format(Locale.ROOT, "%.3fms", nanos / 1e6);
    }
    return nanos >= 1_000 ? String.format(Locale.ROOT, "%.1fus", nanos / 1e3) : nanos + "ns";
  }

  private static final List<String> QUEUE_KEYS =
      List.of(
          "kind",
          "count",
          "registered",
          "ring-size",
          "pollers",
          "full-ring",
          "enqueue-error",
          "enomem-probability",
          "dispatch");

  private static final List<String> ROUTER_KEYS =
      List.of(
          "selector",
          "selector-params",
          "admission",
          "max-background",
          "congestion-threshold",
          "pending-queue");

  private MachineSpecParser() {}

  /**
   * Refuses CPU costs that leave no request a chance to complete within the stall limit: every
   * request pays its submit, its completion and its reap (and on a per-cpu ring queue the server
   * thread's work, behind a pending queue its hop) on some CPU, at full speed at best, so with that
   * much work the liveness check ends the run before the first completion, with every request still
   * on a CPU. (Work queueing up behind other work can still stall a run; that the stall report
   * names then.)
   */
  private static void refuseWorkBeyondTheStallLimit(
      StrictConfig root,
      StrictConfig cpu,
      CpuCosts c,
      MachineSpec.Queues q,
      MachineSpec.Router r,
      long stall) {
    Map<String, Long> parts = new LinkedHashMap<>();
    parts.put("submit-cost", c.submitNanos());
    if (q.kind() == QueueKind.PER_CPU) {
      parts.put("server-cost", c.serverNanos());
    } else if (q.kind() == QueueKind.DEV_FUSE) {
      parts.put("worker-cost", c.workerNanos());
    }
    parts.put("completion-cost", c.completionNanos());
    parts.put("reap-cost", c.reapNanos());
    if (r.pendingQueueNanos() > 0) {
      parts.put("pending-queue", r.pendingQueueNanos());
    }
    long total = parts.values().stream().mapToLong(Long::longValue).sum();
    if (total < stall) {
      return;
    }
    String largest =
        parts.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    List<String> terms = new ArrayList<>();
    parts.forEach((k, v) -> terms.add(k + " " + Durations.format(v)));
    String detail =
        "every request needs "
            + approximately(total)
            + " of CPU work ("
            + String.join(" + ", terms)
            + "), not less than stall-limit "
            + Durations.format(stall)
            + ": the liveness check would end the run before any request completes;"
            + " lower the cost or raise stall-limit";
    if (largest.equals("pending-queue")) {
      throw root.object("router", ROUTER_KEYS).error("pending-queue", detail);
    }
    throw cpu.has(largest) ? cpu.error(largest, detail) : root.error("stall-limit", detail);
  }

  /**
   * @param root an object holding (at least) the {@link #KEYS}; other keys are the caller's
   *     business
   * @param baseDir where relative device files are resolved
   */
  public static MachineSpec parse(StrictConfig root, Path baseDir) {
    StrictConfig m =
        root.object("machine", List.of("numa-nodes", "cores-per-node", "cpu", "kernel"));
    int nodes = m.integer("numa-nodes", 1, 1, 64);
    int perNode = m.integer("cores-per-node", 4, 1, 1024);
    CpuTopology topology = CpuTopology.uniform(nodes, perNode);

    StrictConfig cpu = m.object("cpu", CPU_KEYS);
    CpuCosts d = CpuCosts.DEFAULT;
    CpuCosts costs =
        new CpuCosts(
            cpu.nanos("submit-cost", d.submitNanos()),
            cpu.nanos("server-cost", d.serverNanos()),
            // a libfuse /dev/fuse worker's work, unless given: the ring thread's
            cpu.nanos("worker-cost", cpu.nanos("server-cost", d.serverNanos())),
            cpu.nanos("completion-cost", d.completionNanos()),
            cpu.nanos("wake-cost", d.wakeNanos()),
            cpu.nanos("reap-cost", d.reapNanos()),
            cpu.nanos("switch-cost", d.switchNanos()),
            cpu.nanos("migrate-cost", d.migrateNanos()),
            cpu.nanos("sleep-wake-cost", d.sleepWakeNanos()),
            cpu.nanos("ipi-cost", d.ipiNanos()));
    String cs = cpu.string("c-states", "skx");
    List<CState> cstates =
        switch (cs) {
          case "skx" -> SKX_CSTATES;
          case "none" -> List.of();
          default -> {
            if (!cs.contains(":")) {
              throw cpu.error(
                  "c-states",
                  "unknown C-state table \""
                      + cs
                      + "\" (valid: skx, none, or NAME:EXIT:RESIDENCY, ... as in /sys cpuidle)");
            }
            try {
              yield CStateTable.parse(cs);
            } catch (IllegalArgumentException e) {
              throw cpu.error("c-states", e.getMessage());
            }
          }
        };
    String gov = cpu.string("governor", "performance");
    double minRatio = cpu.number("min-freq-ratio", Governor.SCHEDUTIL.minRatio(), 0.01, 1.0);
    Governor governor =
        switch (gov) {
          case "performance" -> Governor.PERFORMANCE;
          case "schedutil" ->
              new Governor(
                  true,
                  minRatio,
                  Governor.SCHEDUTIL.halfLifeNanos(),
                  Governor.SCHEDUTIL.rateLimitNanos());
          default ->
              throw cpu.error(
                  "governor", "unknown governor \"" + gov + "\" (valid: performance, schedutil)");
        };

    // io_uring's issue of a FUSE read or write: inline in io_uring_enter, or punted to an io-wq
    // worker (io_read -> -EAGAIN without FMODE_NOWAIT -> io_queue_iowq; IoUringPunt)
    StrictConfig kernel =
        m.object(
            "kernel",
            List.of("io-uring-punt", "vcpu-pack", "vcpu-pack-sleeping-waker", "dev-fuse-read"));
    IoUringPunt punt = kernel.parse("io-uring-punt", "inline", IoUringPunt::parse);
    // a guest kernel's wake-up packing onto the waker's vCPU (WakeTargets; off: mainline)
    boolean vcpuPack = kernel.bool("vcpu-pack", false);
    // ... only when the waker sleeps after the wake-up (no other request of its queue to serve)
    boolean packSleepingWaker = kernel.bool("vcpu-pack-sleeping-waker", false);
    if (packSleepingWaker && !vcpuPack) {
      throw kernel.error("vcpu-pack-sleeping-waker", "applies only with vcpu-pack = on");
    }
    // how a /dev/fuse worker reads the device: handed the request that woke it, or fuse_dev_do_read
    // when it runs (DevFuseQueue)
    boolean devFuseAtRun =
        kernel.parse(
            "dev-fuse-read",
            "at-wake",
            v ->
                switch (v) {
                  case "at-wake" -> false;
                  case "at-run" -> true;
                  default ->
                      throw new IllegalArgumentException(
                          "unknown dev-fuse-read \"" + v + "\" (valid: at-wake, at-run)");
                });
    MachineSpec.Queues queues = queues(root, topology);
    MachineSpec.Router router = router(root, queues);
    var wake = root.parse("wake", "waiter-cpu", Strategies::wake);
    String baseSpec = root.string("device", "exponential(40us)");
    // validate once, with a location
    root.parse("device", baseSpec, s -> Devices.parse(s, baseDir));
    // device-ops: a time of its own per request kind (none by default: one for every kind)
    StrictConfig opsConfig = root.object("device-ops", DEVICE_OP_KEYS);
    Map<Op, String> opSpecs = new EnumMap<>(Op.class);
    for (String k : DEVICE_OP_KEYS) {
      if (opsConfig.has(k)) {
        String spec = opsConfig.string(k, null);
        opsConfig.parse(k, spec, x -> Devices.parse(x, baseDir));
        opSpecs.put(Op.valueOf(k.toUpperCase(Locale.ROOT)), spec);
      }
    }
    Supplier<Device> device;
    String deviceSpec;
    if (opSpecs.isEmpty()) {
      device = () -> Devices.parse(baseSpec, baseDir);
      deviceSpec = baseSpec;
    } else {
      device =
          () -> {
            Map<Op, Device> byOp = new EnumMap<>(Op.class);
            opSpecs.forEach((op, x) -> byOp.put(op, Devices.parse(x, baseDir)));
            return new PerOpDevice(Devices.parse(baseSpec, baseDir), byOp);
          };
      try {
        deviceSpec = device.get().spec();
      } catch (IllegalArgumentException e) {
        throw opsConfig.error(
            opSpecs.keySet().iterator().next().name().toLowerCase(Locale.ROOT), e.getMessage());
      }
    }
    long stall = root.nanos("stall-limit", 1_000_000_000L);
    if (stall == 0) {
      throw root.error("stall-limit", "must be > 0");
    }
    if (stall > MachineRun.MAX_SIMULATED_NANOS) {
      throw root.error(
          "stall-limit",
          "must be at most "
              + MachineRun.duration(MachineRun.MAX_SIMULATED_NANOS)
              + ", the simulated time a run may take");
    }
    refuseWorkBeyondTheStallLimit(root, m.object("cpu", CPU_KEYS), costs, queues, router, stall);
    MachineSpec spec =
        new MachineSpec(
            topology,
            costs,
            cstates,
            governor,
            queues,
            router,
            wake,
            deviceSpec,
            device,
            stall,
            punt,
            vcpuPack,
            packSleepingWaker,
            devFuseAtRun);
    MemoryEstimate memory = MemoryEstimate.of(spec);
    if (!memory.fits()) { // 64 x 1024 CPUs with rings of 2^20 slots ran out of heap with a trace
      String key = memory.largest().key();
      StrictConfig at = key.startsWith("machine.") ? m : root.object("queues", QUEUE_KEYS);
      throw at.error(key.substring(key.indexOf('.') + 1), "this machine " + memory.describe());
    }
    return spec;
  }

  private static MachineSpec.Queues queues(StrictConfig root, CpuTopology topology) {
    StrictConfig q = root.object("queues", QUEUE_KEYS);
    QueueKind kind = q.parse("kind", "per-cpu", QueueKind::parse);
    int cpus = topology.cpuCount();
    int count;
    List<Integer> registered;
    int[] home;
    if (kind == QueueKind.PER_CPU) {
      count = cpus;
      if (q.has("count") && q.has("registered")) {
        throw q.error("registered", "give either count or registered, not both");
      }
      if (q.has("registered")) {
        registered = q.ints("registered", List.of());
        for (int r : registered) {
          if (r < 0 || r >= cpus) {
            throw q.error(
                "registered",
                "queue " + r + " is not a CPU of this machine (0.." + (cpus - 1) + ")");
          }
        }
      } else {
        int n = q.integer("count", cpus, 1, cpus);
        registered = IntStream.range(0, n).map(i -> (int) ((long) i * cpus / n)).boxed().toList();
      }
      home = IntStream.range(0, cpus).toArray();
    } else if (kind == QueueKind.DEV_FUSE) {
      // one fuse_iqueue per connection, whatever the number of server threads (clone_fd included)
      count = q.integer("count", 1, 1, 1);
      if (q.has("registered")) {
        throw q.error("registered", "only per-cpu queues can register a subset");
      }
      registered = List.of(0);
      home = new int[] {0}; // no CPU of its own: the worker that ends a request names its CPU
    } else {
      count = q.integer("count", 1, 1, 4096);
      if (q.has("registered")) {
        throw q.error("registered", "only per-cpu queues can register a subset");
      }
      registered = IntStream.range(0, count).boxed().toList();
      home = new int[count];
      Arrays.fill(home, -1);
      if (kind == QueueKind.VIRTIO) {
        if (count > cpus) { // virtio_fs_setup_vqs: num_request_queues = min(num_request_queues,
          // nr_cpu_ids)
          throw q.error(
              "count",
              count
                  + " virtio request queues on "
                  + cpus
                  + " CPUs: virtio-fs uses at most one per"
                  + " CPU (virtio_fs_setup_vqs caps it at nr_cpu_ids)");
        }
        int[] cpuToNode = IntStream.range(0, cpus).map(topology::cpuToNode).toArray();
        int[] map = GroupCpusEvenly.map(cpuToNode, count); // cpu -> queue
        for (int c = 0; c < cpus; c++) {
          if (home[map[c]] < 0) {
            home[map[c]] = c; // the first CPU of the queue's group takes its interrupt
          }
        }
      }
      for (int i = 0; i < count; i++) {
        if (home[i] < 0) {
          home[i] = (int) ((long) i * cpus / count);
        }
      }
    }
    int ring = q.integer("ring-size", 128, 1, 1 << 20);
    // libfuse's fuse_loop_mt default max_threads = 10 (lib/helper.c)
    int pollers = q.integer("pollers", kind == QueueKind.DEV_FUSE ? 10 : 1, 1, 1024);
    double enomem = q.number("enomem-probability", 0, 0, 1);
    if (enomem > 0 && kind == QueueKind.PER_CPU) {
      throw q.error("enomem-probability", NO_URING_ENOMEM);
    }
    return new MachineSpec.Queues(
        kind,
        count,
        new ArrayList<>(registered),
        home,
        ring,
        pollers,
        q.parse("full-ring", "refill-on-completion", Strategies::fullRing),
        q.parse("enqueue-error", "fail", Strategies::enqueueError),
        enomem,
        q.parse("dispatch", "fifo", Strategies::dispatchOrder));
  }

  private static MachineSpec.Router router(StrictConfig root, MachineSpec.Queues queues) {
    StrictConfig r = root.object("router", ROUTER_KEYS);
    // mainline's choice for the kind: fuse-over-io-uring's qid = task_cpu, virtio-fs's mq_map[cpu]
    String selector =
        r.string(
            "selector",
            switch (queues.kind()) {
              case PER_CPU -> "static-cpu";
              case DEV_FUSE -> "single";
              default -> "mq-map";
            });
    Map<String, String> params = r.stringMap("selector-params");
    // validate them now
    QueueSelector sel = r.parse("selector", selector, s -> Selectors.create(s, params));
    if (sel.indexesQueuesByCpu() && queues.kind() != QueueKind.PER_CPU) {
      throw r.error(
          "selector",
          "\""
              + selector
              + "\" takes the submitting CPU as the queue index (fuse-over-io-uring's"
              + " qid = task_cpu), which needs kind = per-cpu queues; with "
              + queues.kind().spec()
              + " queues use mq-map or a load-based selector");
    }
    // /dev/fuse: flush_bg_queue's global max_background; rings: fuse_uring_flush_bg's per-queue
    // rule
    String adm =
        r.string("admission", queues.kind() == QueueKind.DEV_FUSE ? "global" : "per-queue");
    BackgroundAdmission.Mode mode =
        switch (adm) {
          case "per-queue" -> BackgroundAdmission.Mode.PER_QUEUE;
          case "global" -> BackgroundAdmission.Mode.GLOBAL;
          default ->
              throw r.error(
                  "admission", "unknown admission \"" + adm + "\" (valid: per-queue, global)");
        };
    int maxBg = r.integer("max-background", BackgroundAdmission.DEFAULT_MAX_BACKGROUND, 1, 65535);
    int congestion = r.integer("congestion-threshold", maxBg * 3 / 4, 0, 65535);
    long pending = -1;
    String p = r.string("pending-queue", "off");
    if (!p.equals("off")) {
      pending = r.nanos("pending-queue", 0);
    }
    return new MachineSpec.Router(selector, params, mode, maxBg, congestion, pending);
  }
}
