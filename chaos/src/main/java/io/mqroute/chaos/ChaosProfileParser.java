package io.mqroute.chaos;

import com.typesafe.config.Config;
import io.mqroute.actors.machine.Fault;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.actors.machine.MemoryEstimate;
import io.mqroute.actors.machine.QueueKind;
import io.mqroute.config.BoundedFiles;
import io.mqroute.config.ConfigError;
import io.mqroute.config.FileIncluder;
import io.mqroute.config.StrictConfig;
import io.mqroute.policies.strategy.Durations;
import io.mqroute.workload.FioParseException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a chaos profile: the machine keys of an experiment ({@code machine}, {@code queues}, {@code
 * router}, {@code device}, ...) plus
 *
 * <pre>
 * chaos {
 *   semantics = kernel            # or hotplug-aware
 *   iterations = 10               # fsstress runs, each ending with an unmount/remount
 *   load-factor = 1               # writers = load-factor x hotpluggable CPUs (xfstests LOAD_FACTOR)
 *   hotpluggable = [1, 2, 3]      # default: every CPU but 0
 *   hotplug-interval = 500ms      # a random CPU, a random online/offline, this often (0: none)
 *   writer = "rw=randwrite\nioengine=psync"   # fio options of one writer
 *   block-size = 4096
 *   ops-per-writer = 2500         # fsstress -n
 *   iteration-runtime = 3s        # fsstress --duration
 *   verify-ops = 16               # I/Os of the final job pinned to every CPU
 *   max-wait = 10s                # no request may stay on a queue longer (> 0; default: stall-limit)
 *   faults { eio { every = 1s, for = 10ms, rate = 0.5 }, enomem { ... }, stall { every, for },
 *            slow { every, for, factor }, ring-full { every, for, slots } }
 *   events = ["at 12ms offline cpu 3", "at 20ms online cpu 3"]
 * }
 * quick { chaos { ... } }         # what --quick changes
 * </pre>
 *
 * Built-in profiles ({@code generic-650}) are resources next to this class.
 */
public final class ChaosProfileParser {
  /** Larger profiles are refused: they are scripts, not data. */
  public static final long MAX_FILE_BYTES = 1L << 20;

  public static final List<String> BUILT_IN = List.of("generic-650");

  private static final List<String> TOP_KEYS =
      concat(List.of("name", "description", "chaos", "quick"), MachineSpecParser.KEYS);
  private static final List<String> CHAOS_KEYS =
      List.of(
          "semantics",
          "iterations",
          "load-factor",
          "hotpluggable",
          "hotplug-interval",
          "writer",
          "block-size",
          "ops-per-writer",
          "iteration-runtime",
          "verify-ops",
          "max-wait",
          "faults",
          "events");
  private static final List<String> FAULT_KINDS =
      List.of("eio", "enomem", "stall", "slow", "ring-full");
  private static final List<String> FORBIDDEN_WRITER_OPTIONS =
      List.of(
          "bs",
          "size",
          "numjobs",
          "runtime",
          "time_based",
          "stonewall",
          "cpus_allowed",
          "filesize");

  private ChaosProfileParser() {}

  /** The text of a built-in profile or of a file. */
  public static Source load(String profile) {
    if (BUILT_IN.contains(profile)) {
      try (InputStream in = ChaosProfileParser.class.getResourceAsStream(profile + ".conf")) {
        if (in == null) {
          throw new IllegalStateException(
              "built-in profile " + profile + " is missing from the jar");
        }
        return new Source(
            profile,
            new String(in.readAllBytes(), StandardCharsets.UTF_8),
            Path.of("").toAbsolutePath());
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
    }
    Path file = Path.of(profile);
    if (!Files.isRegularFile(file)) {
      throw new ConfigError(
          profile
              + ": no such chaos profile (built in: "
              + String.join(", ", BUILT_IN)
              + "; or a file)");
    }
    try { // a regular file of UTF-8 within the limit: includes are read the same way (FileIncluder)
      return new Source(
          file.toString(),
          BoundedFiles.readString(file, MAX_FILE_BYTES),
          file.toAbsolutePath().getParent());
    } catch (BoundedFiles.Refused e) {
      throw new ConfigError(profile + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ConfigError(profile + ": cannot read (" + e.getMessage() + ")");
    }
  }

  /**
   * A profile's name (for messages), text, and the directory its relative file names (an {@code
   * empirical} device's CSV) are read from.
   */
  public record Source(String name, String text, Path baseDir) {
    public Source(String name, String text) {
      this(name, text, Path.of("").toAbsolutePath());
    }
  }

  /**
   * @param semantics replaces the profile's {@code chaos.semantics} when not null
   * @param quick apply the profile's {@code quick} block
   */
  public static ChaosProfile parse(Source source, Semantics semantics, boolean quick) {
    // as an experiment is read: includes are files relative to the profile's directory (url(...)
    // refused, each bounded), nesting checked before the parser recurses
    Config raw =
        FileIncluder.resolve(
            FileIncluder.parse(source.text(), source.name(), source.baseDir(), MAX_FILE_BYTES)
                .toConfig(),
            source.name());
    StrictConfig top = StrictConfig.of(raw, "", TOP_KEYS);
    if (quick && raw.hasPath("quick")) {
      StrictConfig.of(raw.getConfig("quick"), "quick", List.of("chaos", "stall-limit", "device"));
      raw = raw.getConfig("quick").withFallback(raw.withoutPath("quick"));
    }
    raw = raw.withoutPath("quick");
    top = StrictConfig.of(raw, "", TOP_KEYS);
    String name = top.string("name", source.name());
    String description = top.string("description", "");
    StrictConfig c = top.object("chaos", CHAOS_KEYS);
    Semantics sem = semantics;
    if (sem == null) {
      sem = c.parse("semantics", "kernel", Semantics::parse);
    }
    Config machineRaw = raw.withoutPath("name").withoutPath("description").withoutPath("chaos");
    MachineSpec machine =
        MachineSpecParser.parse(
            StrictConfig.of(machineRaw, "", MachineSpecParser.KEYS), source.baseDir());
    if (sem == Semantics.HOTPLUG_AWARE && !machine.router().selector().equals("hotplug-aware")) {
      machine = wrapHotplugAware(machine);
    }
    int ncpu = machine.topology().cpuCount();
    List<Integer> allButZero = new ArrayList<>();
    for (int i = 1; i < ncpu; i++) {
      allButZero.add(i);
    }
    List<Integer> hot = c.ints("hotpluggable", allButZero);
    for (int cpu : hot) {
      if (cpu == 0) {
        throw c.error("hotpluggable", "CPU 0 is never hotplugged (as in generic/650)");
      }
      if (cpu < 0 || cpu >= ncpu) {
        throw c.error(
            "hotpluggable",
            "CPU " + cpu + " does not exist (the machine has CPUs 0-" + (ncpu - 1) + ")");
      }
    }
    if (hot.stream().distinct().count() != hot.size()) {
      throw c.error("hotpluggable", "names a CPU twice");
    }
    int loadFactor = c.integer("load-factor", 1, 1, 1024);
    int writers =
        loadFactor * hot.size() > 1024 ? hot.size() : loadFactor * hot.size(); // as generic/650
    String writer = c.string("writer", "rw=randwrite\nioengine=psync");
    for (String line : writer.split("\n")) {
      String key = line.strip().split("=", 2)[0].strip().toLowerCase(Locale.ROOT);
      if (FORBIDDEN_WRITER_OPTIONS.contains(key)) {
        throw c.error(
            "writer",
            "must not set "
                + key
                + "= (the profile sets it: block-size, ops-per-writer, "
                + "load-factor, iteration-runtime)");
      }
    }
    long stallLimit = machine.stallLimitNanos();
    long maxWait = c.nanos("max-wait", stallLimit);
    if (maxWait == 0) { // every request waits a little: each would be a violation
      throw c.error("max-wait", "must be > 0: the longest a request may stay on a queue");
    }
    List<FaultSchedule> faults = faults(c.object("faults", FAULT_KINDS), machine.queues().kind());
    List<ChaosEvent> events = new ArrayList<>();
    List<String> lines = c.strings("events", List.of());
    for (int i = 0; i < lines.size(); i++) {
      ChaosEvent e;
      try {
        e = ChaosEvent.parse(lines.get(i));
      } catch (IllegalArgumentException ex) {
        throw c.error("events", "[" + i + "] " + ex.getMessage());
      }
      boolean cpuEvent = e.action() != ChaosEvent.Action.FAULT;
      String problem = null;
      if (cpuEvent && !hot.contains(e.target())) {
        problem = "CPU " + e.target() + " is not hotpluggable (hotpluggable: " + hot + ")";
      } else if (!cpuEvent && e.target() >= machine.queues().count()) {
        problem =
            "queue "
                + e.target()
                + " does not exist (queues 0-"
                + (machine.queues().count() - 1)
                + ")";
      } else if (!cpuEvent
          && e.fault().kind() == Fault.Kind.ENOMEM
          && machine.queues().kind() == QueueKind.PER_CPU) {
        problem = MachineSpecParser.NO_URING_ENOMEM;
      }
      if (problem != null) {
        throw c.error("events", "[" + i + "] \"" + lines.get(i) + "\": " + problem);
      }
      events.add(e);
    }
    ChaosProfile profile =
        new ChaosProfile(
            name,
            description,
            source.text(),
            source.baseDir(),
            sem,
            machine,
            c.integer("iterations", 10, 1, 1000),
            hot,
            hotplugInterval(c),
            writers,
            writer,
            c.integer("block-size", 4096, 1, 1 << 24),
            c.integer("ops-per-writer", 2500, 1, 10_000_000),
            c.nanos("iteration-runtime", 3_000_000_000L),
            c.integer("verify-ops", 16, 1, 1_000_000),
            maxWait,
            faults,
            events,
            quick);
    if ((double) profile.iterations() * profile.iterationRuntimeNanos()
        > MachineRun.MAX_SIMULATED_NANOS) {
      throw c.error(
          "iteration-runtime",
          "iterations x iteration-runtime = "
              + profile.iterations()
              + " x "
              + MachineRun.duration(profile.iterationRuntimeNanos())
              + " is more than the "
              + MachineRun.duration(MachineRun.MAX_SIMULATED_NANOS)
              + " of simulated time a run may take");
    }
    long clones = (long) profile.iterations() * writers + machine.topology().cpuCount();
    if (clones > JobPlan.MAX_JOBS) {
      throw c.error(
          "iterations",
          "iterations x writers + one verifier per CPU = "
              + clones
              + " job clones; at most "
              + JobPlan.MAX_JOBS
              + " (lower iterations or load-factor)");
    }
    List<JobPlan> plans;
    try { // the writer's options as the run reads them: blamed on the profile's key, not the
      // generated file
      plans = profile.plans();
    } catch (FioParseException e) {
      throw c.error("writer", e.detail());
    } catch (IllegalArgumentException e) {
      throw c.error("writer", e.getMessage());
    }
    MemoryEstimate memory = MemoryEstimate.of(machine, plans);
    if (!memory.fits()) { // the machine alone fits (MachineSpecParser): the writers make it big
      throw c.error(
          "iterations",
          "this run "
              + memory.describe()
              + " (a run has iterations x load-factor x hotpluggable CPUs writers)");
    }
    return profile;
  }

  /**
   * Hotplug events and fault windows more often than this would be millions of events per run, each
   * a message to every core and the router: a run that never ends rather than a test.
   */
  static final long MIN_INTERVAL_NANOS = 100_000;

  private static long hotplugInterval(StrictConfig c) {
    long v = c.nanos("hotplug-interval", 500_000_000L);
    if (v > 0 && v < MIN_INTERVAL_NANOS) {
      throw c.error(
          "hotplug-interval",
          "must be 0 (no random hotplug) or at least " + Durations.format(MIN_INTERVAL_NANOS));
    }
    return v;
  }

  private static List<FaultSchedule> faults(StrictConfig f, QueueKind queues) {
    List<FaultSchedule> out = new ArrayList<>();
    for (String kind : FAULT_KINDS) {
      if (!f.has(kind)) {
        continue;
      }
      if (kind.equals("enomem") && queues == QueueKind.PER_CPU) {
        throw f.error(kind, MachineSpecParser.NO_URING_ENOMEM);
      }
      String valueKey =
          switch (kind) {
            case "eio", "enomem" -> "rate";
            case "slow" -> "factor";
            case "ring-full" -> "slots";
            default -> null;
          };
      List<String> keys =
          valueKey == null ? List.of("every", "for") : List.of("every", "for", valueKey);
      StrictConfig k = f.object(kind, keys);
      long every = k.nanos("every", 0);
      long len = k.nanos("for", 0);
      // a window that never opens or never lasts would do nothing
      if (every <= 0) {
        throw k.error("every", "needs a time > 0: the mean gap between windows");
      }
      if (every < MIN_INTERVAL_NANOS) {
        throw k.error("every", "must be at least " + Durations.format(MIN_INTERVAL_NANOS));
      }
      if (len <= 0) {
        throw k.error("for", "needs a time > 0: how long each window stays open");
      }
      double value =
          switch (kind) {
            case "eio", "enomem" -> k.number("rate", 1, 0, 1);
            case "slow" -> k.number("factor", 10, 1, 1e6);
            case "ring-full" -> k.integer("slots", 1, 1, 1 << 20);
            default -> 1;
          };
      out.add(new FaultSchedule(ChaosEvent.faultKind(kind), every, len, value));
    }
    return out;
  }

  private static MachineSpec wrapHotplugAware(MachineSpec m) {
    MachineSpec.Router r = m.router();
    Map<String, String> params = new HashMap<>(r.selectorParams());
    params.put("inner", r.selector());
    MachineSpec.Router wrapped =
        new MachineSpec.Router(
            "hotplug-aware",
            Map.copyOf(params),
            r.admission(),
            r.maxBackground(),
            r.congestionThreshold(),
            r.pendingQueueNanos());
    return m.withRouter(wrapped);
  }

  private static List<String> concat(List<String> a, List<String> b) {
    List<String> out = new ArrayList<>(a);
    out.addAll(b);
    return List.copyOf(out);
  }
}
