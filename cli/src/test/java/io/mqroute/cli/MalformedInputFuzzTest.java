package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed input through the real entry point ({@link Main#execute}): {@value #CASES} experiment,
 * chaos-profile and fio job files made from the shipped ones by seeded mutations — truncation, byte
 * flips, deep nesting, huge numbers, decimals, unknown keys, wrong types, bad UTF-8, bad includes,
 * substitution chains, oversized files, lost or doubled lines. Each case must end as the CLI
 * promises: exit 0 or 3 (it ran), 2 (one line naming what is wrong), or 1 only for an invariant the
 * input really breaks; stderr without a trace and at most a few lines besides the per-variant
 * progress; no report line of runaway length; and within {@link #CASE_TIMEOUT_SECONDS}.
 *
 * <p>Exit 1 is accepted when the output shows a stall or a violation the input can cause: a stall
 * (a device slower than the stall limit, a V2 requeue deadlock once a mutation drops its {@code
 * expect-stall}, a request waiting past chaos's {@code max-wait}, a livelock). Never a "lost
 * request" (the profiles here lose none: there is no lose event), never an actor that failed (a
 * model exception), never without a reason on the output.
 *
 * <p>Runs are kept short: experiments run with {@code --quick} and 1 ms of fio runtime (set in the
 * quick profile, so that a mutated file's own values still parse), chaos profiles with {@code
 * --quick --seeds 1}. Deterministic: case {@code i} is built from seed {@link #SEED} + i whatever
 * the order the two worker threads run them in.
 */
@Tag("integration")
class MalformedInputFuzzTest {
  static final int CASES = 1000;
  static final long SEED = 0x6d71726f757465L; // "mqroute"
  static final int CASE_TIMEOUT_SECONDS = 60;
  private static final int MAX_ERROR_LINES = 3;
  private static final int MAX_LINE = 10_000;

  private static final Path ROOT = Path.of("..");
  private static final List<String> EXPERIMENTS =
      List.of(
          "smoke.conf",
          "seed-001-full-ring.conf",
          "seed-004-request-order.conf",
          "seed-003-wake-cpu.conf",
          "seed-002-numa-background.conf",
          "seed-000-direct-dispatch.conf",
          "policy-tour.conf");

  /**
   * How often each shipped experiment is the base: the cheap ones more, since a mutant that is
   * still valid runs every variant (seed-002 has 18 of them).
   */
  private static final int[] EXPERIMENT_WEIGHTS = {8, 5, 6, 1, 1, 1, 1};

  private static final Path CHAOS =
      ROOT.resolve("chaos/src/main/resources/io/mqroute/chaos/generic-650.conf");

  @TempDir Path dir;

  /** One generated input and the command line that feeds it to the CLI. */
  record Case(int id, String what, List<String> args, String text) {
    @Override
    public String toString() {
      return "case " + id + " (" + what + "): mqroute " + String.join(" ", args);
    }
  }

  /** What came back. */
  record Outcome(Case c, int exit, String out, String err, String thrown, long wallNanos) {}

  @Test
  void malformedInputEndsAsTheCliPromises() throws Exception {
    Files.writeString(dir.resolve("big.conf"), "x = \"" + "a".repeat(2 << 20) + "\"\n");
    List<Case> cases = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      cases.add(generate(i, new SplittableRandom(SEED + i)));
    }
    long t0 = System.nanoTime();
    ExecutorService pool = // daemon threads: a case that hangs must not keep the JVM alive
        Executors.newFixedThreadPool(
            2,
            r -> {
              Thread t = new Thread(r, "fuzz");
              t.setDaemon(true);
              return t;
            });
    List<String> failures = new ArrayList<>();
    int[] exits = new int[4];
    Map<String, double[]> spent = new TreeMap<>(); // seconds and cases per base and exit
    try {
      List<Future<Outcome>> futures = new ArrayList<>();
      for (Case c : cases) {
        futures.add(pool.submit(() -> execute(c)));
      }
      for (int i = 0; i < cases.size(); i++) {
        Outcome o;
        try {
          o = futures.get(i).get(CASE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
          failures.add(cases.get(i) + ": no answer within " + CASE_TIMEOUT_SECONDS + " s");
          futures.get(i).cancel(true);
          continue;
        } catch (ExecutionException e) {
          failures.add(cases.get(i) + ": threw " + e.getCause());
          continue;
        }
        String kind = o.c().what().substring(0, o.c().what().indexOf(':')) + " exit " + o.exit();
        spent.computeIfAbsent(kind, k -> new double[2])[0] += o.wallNanos() / 1e9;
        spent.get(kind)[1]++;
        String problem =
            o.wallNanos() > TimeUnit.SECONDS.toNanos(CASE_TIMEOUT_SECONDS)
                ? "took " + o.wallNanos() / 1_000_000_000L + " s"
                : problem(o);
        if (problem != null) {
          failures.add(
              o.c() + ": " + problem + "\n  exit " + o.exit() + "\n  stderr: " + o.err().strip());
        } else {
          exits[o.exit()]++;
          if (o.exit() == Main.INVARIANT_BROKEN) { // accepted as genuine: say which and why
            System.out.println(
                "fuzz: exit 1 for " + o.c() + ": " + firstViolation(o.out() + o.err()));
          }
        }
      }
    } finally {
      pool.shutdownNow();
    }
    System.out.printf(
        Locale.ROOT,
        "fuzz: %d cases in %.1f s: exit 0 %d, exit 1 %d, exit 2 %d, exit 3 %d, %d failed%n",
        cases.size(),
        (System.nanoTime() - t0) / 1e9,
        exits[0],
        exits[1],
        exits[2],
        exits[3],
        failures.size());
    spent.forEach(
        (k, v) ->
            System.out.printf(Locale.ROOT, "fuzz:   %-36s %5.0f cases %6.1f s%n", k, v[1], v[0]));
    assertThat(failures)
        .as(String.join("\n\n", failures.subList(0, Math.min(10, failures.size()))))
        .isEmpty();
    assertThat(exits[2]).as("most mutants are refused").isGreaterThan(CASES / 2);
    assertThat(exits[0] + exits[3]).as("some mutants still run").isPositive();
  }

  private Outcome execute(Case c) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    long t0 = System.nanoTime();
    try {
      int exit =
          Main.execute(
              c.args().toArray(String[]::new),
              new PrintWriter(out, true),
              new PrintWriter(err, true));
      return new Outcome(c, exit, out.toString(), err.toString(), null, System.nanoTime() - t0);
    } catch (Throwable t) { // an Error escaping the entry point: reported as the case's failure
      return new Outcome(
          c, -1, out.toString(), err.toString(), t.toString(), System.nanoTime() - t0);
    }
  }

  /** Why an outcome breaks the CLI's promise, or null. */
  static String problem(Outcome o) {
    if (o.thrown() != null) {
      return "threw " + o.thrown();
    }
    String err = o.err();
    if (err.contains("Exception") || err.contains("\tat ") || err.contains("Error:")) {
      return "a trace on stderr";
    }
    List<String> errorLines =
        err.lines().filter(l -> !isProgress(l)).filter(l -> !l.isBlank()).toList();
    if (errorLines.size() > MAX_ERROR_LINES) {
      return errorLines.size() + " lines on stderr";
    }
    for (String l : (o.out() + err).lines().toList()) {
      if (l.length() > MAX_LINE) {
        return "a line of " + l.length() + " characters";
      }
    }
    return switch (o.exit()) {
      case Main.OK, Main.EXPECTATION_FAILED ->
          errorLines.isEmpty() ? null : "ran, but said on stderr: " + errorLines;
      case Main.BAD_INPUT -> errorLines.size() == 1 ? null : "exit 2 without one line saying why";
      case Main.INVARIANT_BROKEN -> genuineViolation(o);
      default -> "exit " + o.exit();
    };
  }

  private static String firstViolation(String output) {
    return output
        .lines()
        .filter(
            l ->
                l.startsWith("STALL in ")
                    || l.startsWith("VIOLATION in ")
                    || l.startsWith("  ")
                    || l.contains("livelock"))
        .findFirst()
        .map(l -> l.length() > 300 ? l.substring(0, 300) + "..." : l)
        .orElse("?");
  }

  /** The per-variant progress lines (not errors). */
  private static boolean isProgress(String l) {
    return l.startsWith("mqroute: variant ")
            && (l.contains(" done in ") || l.contains(" simulated after "))
        || l.matches("mqroute: \\d+ (run|seed)\\(s\\) at once instead of \\d+: .*");
  }

  /** Exit 1 needs a reason the input can cause on the output, and none that is a model bug. */
  private static String genuineViolation(Outcome o) {
    String all = o.out() + o.err();
    if (all.contains("lost request") && !o.c().text().contains(" lose ")) {
      return "a lost request in a run that loses none";
    }
    if (all.matches("(?s).*actor \\S+ failed.*")) {
      return "a model actor failed";
    }
    boolean reason =
        all.contains("STALL in ")
            || all.contains("VIOLATION in ")
            || all.matches("(?s).*seed \\d+ \\(\\S+\\) broke \\d+ check.*")
            || all.contains("a livelock");
    return reason ? null : "exit 1 without a stall or violation on the output";
  }

  // ---- case generation

  private Case generate(int id, SplittableRandom r) throws IOException {
    int kind = r.nextInt(20); // 13 experiments, 3 chaos profiles, 4 fio job files
    Path caseDir = Files.createDirectories(dir.resolve("case-" + id));
    Path out = caseDir.resolve("out");
    if (kind < 13) {
      String base = EXPERIMENTS.get(weighted(r, EXPERIMENT_WEIGHTS));
      String text = Files.readString(ROOT.resolve("experiments").resolve(base));
      Mutant m = mutate(text, r, caseDir.resolve("case.conf"));
      Path f = write(caseDir.resolve("case.conf"), m);
      return new Case(id, base + ": " + m.what(), runArgs(f, out), m.text());
    }
    if (kind < 16) {
      String text = Files.readString(CHAOS);
      Mutant m = mutate(text, r, caseDir.resolve("case.conf"));
      Path f = write(caseDir.resolve("case.conf"), m);
      List<String> args =
          List.of(
              "chaos",
              "--profile",
              f.toString(),
              "--quick",
              "--seeds",
              "1",
              "--parallel",
              "1",
              "--out",
              out.toString());
      return new Case(id, "generic-650: " + m.what(), args, m.text());
    }
    // an fio job file: smoke's workload or the cluster's load file, behind smoke's machine
    String smoke = Files.readString(ROOT.resolve("experiments/smoke.conf"));
    String job =
        r.nextBoolean()
            ? smoke.substring(
                smoke.indexOf("[global]"), smoke.indexOf("\"\"\"", smoke.indexOf("[global]")))
            : Files.readString(ROOT.resolve("cluster-config/randread.fio"));
    Mutant m = mutateFio(job, r);
    write(caseDir.resolve("case.fio"), m);
    String wrapper =
        smoke.substring(0, smoke.indexOf("workload = \"\"\""))
            + "workload = \"case.fio\"\n"
            + smoke.substring(smoke.indexOf("variants = ["));
    Path f = Files.writeString(caseDir.resolve("case.conf"), wrapper);
    return new Case(id, "fio job file: " + m.what(), runArgs(f, out), m.text());
  }

  private static List<String> runArgs(Path f, Path out) {
    return List.of(
        "run",
        f.toString(),
        "--quick",
        "--brief",
        "--parallel",
        "1",
        "--out",
        out.toString(),
        "--set",
        "quick.fio.runtime=1ms",
        "--set",
        "quick.fio.ramp_time=0");
  }

  private static int weighted(SplittableRandom r, int[] weights) {
    int total = Arrays.stream(weights).sum();
    int x = r.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) {
        return i;
      }
    }
    return weights.length - 1;
  }

  /** A mutated file: its bytes (not always UTF-8), and what was done. */
  record Mutant(byte[] bytes, String what) {
    String text() {
      return new String(bytes, StandardCharsets.UTF_8);
    }

    static Mutant of(String text, String what) {
      return new Mutant(text.getBytes(StandardCharsets.UTF_8), what);
    }
  }

  private static Path write(Path f, Mutant m) throws IOException {
    return Files.write(f, m.bytes());
  }

  private static final String[] HUGE = {
    "1e30",
    "2147483648",
    "9223372036854775808",
    "99999999999999999999999",
    "-1",
    "-2147483649",
    "1e308",
    "4294967297",
    "0",
    "65536",
    "1e-300",
    "007",
    "1_000"
  };

  private static final String[] WRONG_TYPES = {
    "[1, 2]", "{ }", "\"x\"", "true", "null", "${nope}", "${?nope}", "[[[]]]", "\"\"", "{ a = 1 }"
  };

  private static final byte[][] BAD_UTF8 = {
    {(byte) 0xff},
    {(byte) 0xc3},
    {(byte) 0xe2, 0x28, (byte) 0xa1},
    {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
    {(byte) 0xc0, (byte) 0xaf},
    {(byte) 0xf8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
    {(byte) 0x80},
    {(byte) 0xfe, (byte) 0xff}
  };

  private static final Pattern NUMBER = Pattern.compile("(?<![A-Za-z_.$\\d])-?\\d+(\\.\\d+)?");

  /** One mutation of a HOCON file (an experiment or a chaos profile). */
  private Mutant mutate(String text, SplittableRandom r, Path self) {
    List<String> lines = new ArrayList<>(text.lines().toList());
    int line = r.nextInt(lines.size());
    int op = weighted(r, new int[] {12, 8, 10, 9, 7, 10, 12, 10, 10, 2, 2, 1, 1, 1, 3});
    return switch (op) {
      case 0 -> {
        int at = r.nextInt(text.length());
        yield Mutant.of(text.substring(0, at), "truncated at " + at);
      }
      case 1 -> flip(text, r);
      case 2 -> {
        int depth = new int[] {65, 100, 2_000, 20_000}[r.nextInt(4)];
        String deep =
            switch (r.nextInt(3)) {
              case 0 -> "deep = " + "{a:".repeat(depth) + "1" + "}".repeat(depth);
              case 1 -> "deep = " + "[".repeat(depth) + "]".repeat(depth);
              default -> "deep." + "a.".repeat(depth) + "b = 1";
            };
        lines.add(line, deep);
        yield Mutant.of(
            String.join("\n", lines), "nested " + depth + " deep at line " + (line + 1));
      }
      case 3 -> replaceNumber(text, r, HUGE[r.nextInt(HUGE.length)]);
      case 4 -> {
        String[] decimals = {"1.5", "2.9", "0.5", "1.9", "3.25"};
        yield replaceNumber(text, r, decimals[r.nextInt(decimals.length)]);
      }
      case 5 -> {
        String[] unknown = {
          "frobnicate = 1",
          "queues.frobnicate = 2",
          "machine { nodes = 2 }",
          "chaos.iteratons = 3",
          "router { selectr = p2c }",
          "cpu.submit-cost = 1us",
          "variants = [ { nme = x } ]"
        };
        lines.add(line, unknown[r.nextInt(unknown.length)]);
        yield Mutant.of(String.join("\n", lines), "unknown key at line " + (line + 1));
      }
      case 6 -> {
        byte[] bad = BAD_UTF8[r.nextInt(BAD_UTF8.length)];
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        int at = r.nextInt(b.length + 1);
        byte[] out = new byte[b.length + bad.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(bad, 0, out, at, bad.length);
        System.arraycopy(b, at, out, at + bad.length, b.length - at);
        yield new Mutant(out, "bad UTF-8 at byte " + at);
      }
      case 7 -> {
        String[] includes = {
          "include url(\"http://127.0.0.1:9/x.conf\")",
          "include \"missing.conf\"",
          "include file(\"/dev/zero\")",
          "include \"../big.conf\"",
          "include \"" + self.getFileName() + "\"",
          "include file(\".\")",
          "include required(\"nope.conf\")",
          "include classpath(\"no-such-resource.conf\")"
        };
        String inc = includes[r.nextInt(includes.length)];
        lines.add(r.nextBoolean() ? 0 : line, inc);
        yield Mutant.of(String.join("\n", lines), inc);
      }
      case 8 -> {
        Matcher m = Pattern.compile("(?m)^(\\s*[A-Za-z][\\w.\"-]*\\s*=\\s*)(\\S.*)$").matcher(text);
        List<int[]> spots = new ArrayList<>();
        while (m.find()) {
          spots.add(new int[] {m.start(2), m.end(2)});
        }
        if (spots.isEmpty()) {
          yield Mutant.of(text, "unchanged");
        }
        int[] s = spots.get(r.nextInt(spots.size()));
        String v = WRONG_TYPES[r.nextInt(WRONG_TYPES.length)];
        yield Mutant.of(
            text.substring(0, s[0]) + v + text.substring(s[1]), "value at " + s[0] + " -> " + v);
      }
      case 9 -> {
        StringBuilder sb = new StringBuilder(text).append('\n');
        for (int i = 0; i < 5_000; i++) {
          sb.append("k").append(i).append(" = ${k").append(i + 1).append("}\n");
        }
        yield Mutant.of(sb.append("k5000 = 1\n").toString(), "5,000 chained substitutions");
      }
      case 10 -> Mutant.of(text + "\n# " + "x".repeat((1 << 20) + 10) + "\n", "over 1 MiB");
      case 11 -> {
        lines.remove(line);
        yield Mutant.of(String.join("\n", lines), "line " + (line + 1) + " deleted");
      }
      case 12 -> {
        lines.add(line, lines.get(line));
        yield Mutant.of(String.join("\n", lines), "line " + (line + 1) + " doubled");
      }
      case 13 -> Mutant.of(text.replace("\n", "\r\n"), "CRLF line ends");
      default -> {
        int at = r.nextInt(text.length());
        yield Mutant.of(text.substring(0, at) + "\0" + text.substring(at), "NUL at " + at);
      }
    };
  }

  /** A byte of a line that is not a comment, replaced by a character that matters to HOCON. */
  private static Mutant flip(String text, SplittableRandom r) {
    List<Integer> starts = new ArrayList<>();
    int pos = 0;
    for (String l : text.split("\n", -1)) {
      String s = l.strip();
      if (!s.isEmpty() && !s.startsWith("#") && !s.startsWith("//")) {
        starts.add(pos);
      }
      pos += l.length() + 1;
    }
    int start = starts.get(r.nextInt(starts.size()));
    int end = text.indexOf('\n', start);
    end = end < 0 ? text.length() : end;
    int at = start + r.nextInt(Math.max(1, end - start));
    String chars = "{}[]\"=:,.$\\#+0123456789-xk \t";
    char c = chars.charAt(r.nextInt(chars.length()));
    return Mutant.of(
        text.substring(0, at) + c + text.substring(Math.min(text.length(), at + 1)),
        "byte " + at + " -> '" + c + "'");
  }

  private static Mutant replaceNumber(String text, SplittableRandom r, String with) {
    Matcher m = NUMBER.matcher(text);
    List<int[]> spots = new ArrayList<>();
    while (m.find()) {
      int lineStart = text.lastIndexOf('\n', m.start()) + 1;
      if (!text.substring(lineStart, m.start()).strip().startsWith("#")) {
        spots.add(new int[] {m.start(), m.end()});
      }
    }
    int[] s = spots.get(r.nextInt(spots.size()));
    return Mutant.of(
        text.substring(0, s[0]) + with + text.substring(s[1]),
        text.substring(s[0], s[1]) + " at " + s[0] + " -> " + with);
  }

  /** One mutation of an fio job file. */
  private static Mutant mutateFio(String job, SplittableRandom r) {
    List<String> lines = new ArrayList<>(job.lines().toList());
    int line = r.nextInt(lines.size());
    String[] options = {
      "iodepth=1.5",
      "iodepth=65536",
      "iodepth=0",
      "numjobs=100000",
      "numjobs=4096",
      "bs=0",
      "bs=1.5k",
      "size=99999999999999999999",
      "size=1e30",
      "runtime=1000000h",
      "runtime=-1",
      "runtime=1.5",
      "cpus_allowed=9999",
      "rate_iops=0.5",
      "frobnicate=1",
      "ioengine=nope",
      "rw=trim",
      "direct=0",
      "fsync=1",
      "nrfiles=2",
      "thinktime=1000000h",
      "startdelay=2h",
      "ramp_time=99999999999999999999s",
      "loops=0",
      "offset=1e30",
      "rwmixread=101",
      "percentile_list=200",
      "kb_base=7",
      "[",
      "[]",
      "=",
      "iodepth",
      "stonewall"
    };
    return switch (r.nextInt(5)) {
      case 0 -> {
        String o = options[r.nextInt(options.length)];
        lines.add(1 + r.nextInt(lines.size()), o);
        yield Mutant.of(String.join("\n", lines) + "\n", o);
      }
      case 1 -> {
        int at = r.nextInt(job.length());
        yield Mutant.of(job.substring(0, at), "truncated at " + at);
      }
      case 2 -> flip(job, r);
      case 3 -> {
        byte[] bad = BAD_UTF8[r.nextInt(BAD_UTF8.length)];
        byte[] b = job.getBytes(StandardCharsets.UTF_8);
        int at = r.nextInt(b.length + 1);
        byte[] out = new byte[b.length + bad.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(bad, 0, out, at, bad.length);
        System.arraycopy(b, at, out, at + bad.length, b.length - at);
        yield new Mutant(out, "bad UTF-8 at byte " + at);
      }
      default -> replaceNumber(job, r, HUGE[r.nextInt(HUGE.length)]);
    };
  }
}
