package io.mqroute.cli;

import io.mqroute.actors.machine.MachineRun;
import io.mqroute.cluster.NodeMetrics;
import io.mqroute.cluster.sweep.RemoteSweep;
import io.mqroute.cluster.sweep.SweepWork;
import io.mqroute.config.BoundedFiles;
import io.mqroute.config.ConfigError;
import io.mqroute.config.UserError;
import io.mqroute.experiment.ExperimentParser;
import io.mqroute.experiment.ExperimentRunner;
import io.mqroute.experiment.ExperimentSpec;
import io.mqroute.experiment.RunCodec;
import io.mqroute.protocol.SweepMessage;
import io.mqroute.workload.FioParseException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * {@code mqroute run --cluster}: an experiment's runs done by the cluster's workers. An order is
 * the experiment's files (the ones its parse read: the script, what it includes, its fio job file),
 * how it was parsed (seed, --set, --quick) and which run; the worker parses the same files with the
 * same parser and runs that one run, and the result comes back as {@link RunCodec} bytes. Runs are
 * deterministic, so the client writes the same files and digest as a local run.
 */
final class ClusterSweep {
  private ClusterSweep() {}

  private static final int MAGIC = 0x6d717377; // "mqsw"
  private static final int MAX_FILES = 64;

  /** How an experiment was parsed: the same on the worker. */
  record Parse(Path file, Long seed, Map<String, String> sets, boolean quick) {}

  /**
   * One run's order.
   *
   * @param files the experiment's files by absolute path (as read on the client)
   * @param variantId the variant's id on the client: the worker's parse must agree
   */
  record Order(
      Map<Path, byte[]> files, Parse parse, int variant, int replication, String variantId) {

    byte[] encode() {
      ByteArrayOutputStream b = new ByteArrayOutputStream();
      try (DataOutputStream out = new DataOutputStream(b)) {
        out.writeInt(MAGIC);
        out.writeInt(files.size());
        for (Map.Entry<Path, byte[]> f : files.entrySet()) {
          out.writeUTF(f.getKey().toString());
          out.writeInt(f.getValue().length);
          out.write(f.getValue());
        }
        out.writeUTF(parse.file().toAbsolutePath().normalize().toString());
        out.writeBoolean(parse.seed() != null);
        out.writeLong(parse.seed() == null ? 0 : parse.seed());
        out.writeInt(parse.sets().size());
        for (Map.Entry<String, String> e : parse.sets().entrySet()) {
          out.writeUTF(e.getKey());
          out.writeUTF(e.getValue());
        }
        out.writeBoolean(parse.quick());
        out.writeInt(variant);
        out.writeInt(replication);
        out.writeUTF(variantId);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return b.toByteArray();
    }

    /**
     * @throws IllegalArgumentException if the bytes are no order (their size is bounded by the
     *     message that brought them)
     */
    static Order decode(byte[] bytes) {
      try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
        if (in.readInt() != MAGIC) {
          throw new IllegalArgumentException("not a sweep order");
        }
        int n = in.readInt();
        if (n < 1 || n > MAX_FILES) {
          throw new IllegalArgumentException("an order of " + n + " files");
        }
        Map<Path, byte[]> files = new LinkedHashMap<>();
        for (int i = 0; i < n; i++) {
          Path p = Path.of(in.readUTF());
          int len = in.readInt();
          if (len < 0 || len > bytes.length) {
            throw new IllegalArgumentException("a file of " + len + " bytes");
          }
          files.put(p, in.readNBytes(len));
        }
        Path file = Path.of(in.readUTF());
        boolean hasSeed = in.readBoolean();
        long seed = in.readLong();
        int sets = in.readInt();
        if (sets < 0 || sets > bytes.length) {
          throw new IllegalArgumentException(sets + " --set keys");
        }
        Map<String, String> set = new LinkedHashMap<>();
        for (int i = 0; i < sets; i++) {
          set.put(in.readUTF(), in.readUTF());
        }
        boolean quick = in.readBoolean();
        Order o =
            new Order(
                files,
                new Parse(file, hasSeed ? seed : null, set, quick),
                in.readInt(),
                in.readInt(),
                in.readUTF());
        if (in.available() > 0) {
          throw new IllegalArgumentException("bytes after the order");
        }
        return o;
      } catch (IOException e) {
        throw new IllegalArgumentException("a truncated sweep order");
      }
    }
  }

  /** What a worker node does with an order: parse, run, encode. */
  static final SweepWork WORK = ClusterSweep::work;

  static byte[] work(byte[] bytes) throws SweepWork.Failed {
    Order o;
    try {
      o = Order.decode(bytes);
    } catch (IllegalArgumentException e) {
      throw new SweepWork.Failed("a malformed order: " + e.getMessage());
    }
    ExperimentSpec spec = cached(o);
    if (o.variant() < 0
        || o.variant() >= spec.variants().size()
        || o.replication() < 0
        || o.replication() >= spec.replications()
        || !spec.variants().get(o.variant()).id().equals(o.variantId())) {
      throw new SweepWork.Failed(
          "the worker's parse of "
              + o.parse().file().getFileName()
              + " has no variant "
              + o.variantId()
              + " replication "
              + o.replication()
              + " (another build of mqroute?)");
    }
    try {
      return RunCodec.encode(
          ExperimentRunner.runOne(
              spec, o.variant(), o.replication(), ExperimentRunner.Watcher.NONE));
    } catch (MachineRun.NoResult e) {
      throw new SweepWork.Failed(e.getMessage());
    }
  }

  /** Parsed experiments by their files and parse flags: a sweep's runs share one parse. */
  private static final Map<String, ExperimentSpec> PARSED =
      new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, ExperimentSpec> eldest) {
          return size() > 4; // a few sweeps at once; a spec holds no results
        }
      };

  /**
   * The order's experiment, parsed once per worker: an ExperimentSpec is immutable and a local run
   * shares one between its threads too.
   */
  private static ExperimentSpec cached(Order o) throws SweepWork.Failed {
    String key;
    try {
      key =
          HexFormat.of()
              .formatHex(
                  MessageDigest.getInstance("SHA-256")
                      .digest(new Order(o.files(), o.parse(), 0, 0, "").encode()));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e); // every JDK has SHA-256
    }
    synchronized (PARSED) {
      ExperimentSpec spec = PARSED.get(key);
      if (spec != null) {
        return spec;
      }
    }
    ExperimentSpec spec = parse(o);
    synchronized (PARSED) {
      PARSED.put(key, spec);
    }
    return spec;
  }

  /**
   * The order's files under a private directory of their own (their absolute paths below it, so
   * relative includes resolve as on the client), parsed there.
   */
  private static ExperimentSpec parse(Order o) throws SweepWork.Failed {
    Path root;
    try {
      root = Files.createTempDirectory("mqroute-sweep-");
    } catch (IOException e) {
      throw new SweepWork.Failed("cannot make a directory for the experiment: " + e.getMessage());
    }
    try {
      for (Map.Entry<Path, byte[]> f : o.files().entrySet()) {
        Path p = under(root, f.getKey());
        Files.createDirectories(p.getParent());
        Files.write(p, f.getValue());
      }
      // the parse may read only what the order brought: an include or a workload by absolute path
      // would read this machine's files instead
      Map<Path, byte[]> read = new LinkedHashMap<>();
      Path main = under(root, o.parse().file());
      ExperimentSpec spec =
          BoundedFiles.recording(
              read,
              () ->
                  ExperimentParser.parse(
                      main, o.parse().seed(), o.parse().sets(), o.parse().quick()));
      for (Path p : read.keySet()) {
        if (!p.startsWith(root.toAbsolutePath().normalize())) {
          throw new SweepWork.Failed(
              "the experiment reads " + p + ", which is not among the files the order brought");
        }
      }
      return spec;
    } catch (ConfigError | FioParseException e) {
      throw new SweepWork.Failed(e.getMessage());
    } catch (IOException e) {
      throw new SweepWork.Failed("cannot write the experiment's files: " + e.getMessage());
    } finally {
      delete(root);
    }
  }

  /** {@code abs} below {@code root}; a path that would leave it is refused. */
  private static Path under(Path root, Path abs) throws SweepWork.Failed {
    String rel = abs.toString().replaceFirst("^[/\\\\]+", "").replace(':', '_');
    Path p = root.resolve(rel).normalize();
    if (!p.startsWith(root) || p.equals(root)) {
      throw new SweepWork.Failed("an order names a file outside its directory: " + abs);
    }
    return p;
  }

  private static void delete(Path root) {
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind: nothing to tell the client
    }
  }

  /** Every run's order, variant by variant, replication by replication. */
  static List<byte[]> orders(ExperimentSpec spec, Map<Path, byte[]> files, Parse parse) {
    List<byte[]> out = new ArrayList<>();
    for (int v = 0; v < spec.variants().size(); v++) {
      for (int r = 0; r < spec.replications(); r++) {
        byte[] b = new Order(files, parse, v, r, spec.variants().get(v).id()).encode();
        if (b.length > SweepMessage.MAX_CHUNK) {
          throw new UserError(
              "--cluster: "
                  + parse.file()
                  + " and the files it reads take "
                  + b.length
                  + " bytes, more than the "
                  + SweepMessage.MAX_CHUNK
                  + " one run's order may carry; run it without --cluster");
        }
        out.add(b);
      }
    }
    return out;
  }

  /** The runs' results, or a line per failed run on {@code err}. */
  static List<List<ExperimentRunner.Run>> run(
      ActorSystem<?> system,
      ExperimentSpec spec,
      List<byte[]> orders,
      Duration wait,
      PrintWriter err)
      throws InterruptedException {
    long t0 = System.nanoTime();
    RemoteSweep.Running running = RemoteSweep.start(system, orders, wait);
    NodeMetrics.get(system).sweep(() -> status(running.progress().now()));
    RemoteSweep.Outcome outcome;
    String last = "";
    while (true) {
      try {
        outcome = running.outcome().get(1, TimeUnit.SECONDS);
        break;
      } catch (TimeoutException e) {
        // the terminal's view of the cluster, once a second while it changes (not a test)
        String now = line(running.progress().now());
        if (!now.equals(last)) {
          err.println(now);
          err.flush();
          last = now;
        }
      } catch (ExecutionException e) {
        if (e.getCause() instanceof RemoteSweep.NoWorkers n) {
          throw new UserError(n.getMessage());
        }
        throw new IllegalStateException(e.getCause());
      }
    }
    long shipped = 0;
    int results = 0;
    for (byte[] b : outcome.results()) {
      if (b != null) {
        shipped += b.length;
        results++;
      }
    }
    err.println(
        line(running.progress().now())
            + String.format(
                Locale.ROOT,
                "; %.1f s, orders of %.1f KiB, results of %.1f KiB on average",
                (System.nanoTime() - t0) / 1e9,
                orders.get(0).length / 1024.0,
                results == 0 ? 0 : shipped / 1024.0 / results));
    err.flush();
    if (!outcome.failures().isEmpty()) {
      return failed(spec, outcome, err);
    }
    List<List<ExperimentRunner.Run>> runs = new ArrayList<>();
    long[] shipping = new long[orders.size()];
    int i = 0;
    for (int v = 0; v < spec.variants().size(); v++) {
      List<ExperimentRunner.Run> reps = new ArrayList<>();
      for (int r = 0; r < spec.replications(); r++) {
        try {
          ExperimentRunner.Run run = RunCodec.decode(outcome.results().get(i));
          shipping[i] = outcome.roundTripNanos()[i] - run.wallNanos();
          i++;
          reps.add(run);
        } catch (RunCodec.Malformed e) {
          err.println(
              "mqroute: run of "
                  + spec.variants().get(v).id()
                  + " seed "
                  + (spec.seed() + r)
                  + ": "
                  + e.getMessage());
          return null;
        }
      }
      runs.add(reps);
    }
    Arrays.sort(shipping);
    // what a run cost beyond itself: the order out, the parse there, the result encoded and back
    err.printf(
        Locale.ROOT,
        "sweep: shipping a run took %.1f ms beyond the run (median of %d; 90th percentile %.1f ms)%n",
        shipping[shipping.length / 2] / 1e6,
        shipping.length,
        shipping[Math.min(shipping.length - 1, shipping.length * 9 / 10)] / 1e6);
    err.flush();
    return runs;
  }

  private static List<List<ExperimentRunner.Run>> failed(
      ExperimentSpec spec, RemoteSweep.Outcome outcome, PrintWriter err) {
    outcome
        .failures()
        .forEach(
            (i, why) ->
                err.println(
                    "mqroute: run of "
                        + spec.variants().get(i / spec.replications()).id()
                        + " seed "
                        + (spec.seed() + i % spec.replications())
                        + " failed on the workers (twice): "
                        + why));
    err.flush();
    return null;
  }

  /** The sweep across the cluster, as /status shows it. */
  static Map<String, Object> status(RemoteSweep.Progress p) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("runs", p.total());
    s.put("runs_done", p.done());
    s.put("runs_failed", p.failed());
    s.put("in_flight", p.inFlight());
    s.put("sent_again", p.resent());
    Map<String, Object> workers = new LinkedHashMap<>();
    p.workers()
        .forEach(
            (name, w) ->
                workers.put(
                    name,
                    Map.of(
                        "slots", w.slots(),
                        "in_flight", w.inFlight(),
                        "runs_done", w.done(),
                        "lost", w.lost())));
    s.put("workers", workers);
    return s;
  }

  static String line(RemoteSweep.Progress p) {
    StringBuilder sb =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "sweep: %d/%d runs done, %d in flight, %d failed",
                p.done(),
                p.total(),
                p.inFlight(),
                p.failed()));
    if (p.resent() > 0) {
      sb.append(", ").append(p.resent()).append(" sent again");
    }
    if (p.workers().isEmpty()) {
      sb.append("; waiting for workers");
    }
    p.workers()
        .forEach(
            (name, w) ->
                sb.append(
                    String.format(
                        Locale.ROOT,
                        "; %s %d/%d running, %d done%s",
                        name,
                        w.inFlight(),
                        w.slots(),
                        w.done(),
                        w.lost() ? " (lost)" : "")));
    return sb.toString();
  }
}
