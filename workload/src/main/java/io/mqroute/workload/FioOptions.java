package io.mqroute.workload;

import io.mqroute.policies.NameSuggester;
import io.mqroute.workload.FioValues.BadValue;
import io.mqroute.workload.FioValues.Parser;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The fio job options mqroute understands, with their aliases and value parsers, plus the names of
 * real fio options it deliberately does not model (so that the error says "not supported" rather
 * than "unknown").
 */
final class FioOptions {

  /**
   * One option.
   *
   * @param name the canonical name (what JSON {@code "job options"} shows; fio prints aliases this
   *     way)
   * @param flag a bare flag such as {@code time_based} (also accepts {@code =0}/{@code =1})
   * @param parser turns the text after {@code =} into a typed value
   * @param hint what a good value looks like, for "needs a value" messages
   */
  record Def(String name, boolean flag, Parser<?> parser, String hint) {}

  private static final Map<String, Def> OPTIONS = new LinkedHashMap<>();
  private static final Map<String, String> ALIASES =
      Map.of(
          "readwrite", "rw",
          "blocksize", "bs",
          "wait_for_previous", "stonewall",
          "timeout", "runtime"); // fio's options.c: runtime's alias

  private static final String RW_NAMES =
      "one of read, write, randread, randwrite, rw, readwrite, randrw";
  private static final String IOPS_HINT =
      "IOPS like 500, or read,write IOPS like 500,100 or 500:100";
  private static final String RATE_HINT =
      "bytes per second like 10m, or read,write like 10m,2m or 10m:2m";

  static {
    value("name", raw -> nonEmpty(raw, "a job name"), "a job name");
    value("description", raw -> raw, "any text");
    value("rw", FioOptions::rw, RW_NAMES);
    value("rwmixread", raw -> percent(raw), "a percentage 0-100");
    value("rwmixwrite", raw -> percent(raw), "a percentage 0-100");
    value(
        "bs",
        raw ->
            FioValues.pair(
                raw,
                FioValues::positiveSize,
                FioValues.SIZE_HINT + ", or read,write sizes like 4k,64k or 4k:64k"),
        FioValues.SIZE_HINT);
    value("iodepth", raw -> FioValues.integer(raw, 1, 65_536), "a whole number 1-65536");
    value("numjobs", raw -> FioValues.integer(raw, 1, 65_536), "a whole number 1-65536");
    value("size", FioValues::positiveSize, FioValues.SIZE_HINT);
    value("filesize", FioValues::positiveSize, FioValues.SIZE_HINT);
    value("offset", FioValues::size, FioValues.SIZE_HINT);
    value("runtime", FioValues::timeNs, FioValues.TIME_HINT);
    value("ramp_time", FioValues::timeNs, FioValues.TIME_HINT);
    value("startdelay", FioValues::timeNs, FioValues.TIME_HINT);
    flag("time_based");
    flag("group_reporting");
    flag("stonewall");
    flag("thread");
    value("rate_iops", raw -> FioValues.pair(raw, one -> iops(one), IOPS_HINT), IOPS_HINT);
    value("rate", raw -> FioValues.pair(raw, FioValues::size, RATE_HINT), RATE_HINT);
    value(
        "rate_process",
        raw ->
            choice(
                raw,
                Map.of("linear", RateProcess.LINEAR, "poisson", RateProcess.POISSON),
                "linear or poisson"),
        "linear or poisson");
    value("cpus_allowed", FioValues::cpuList, "a CPU list like 0-3,8,10-11");
    value(
        "cpus_allowed_policy",
        raw ->
            choice(
                raw,
                Map.of("shared", CpusAllowedPolicy.SHARED, "split", CpusAllowedPolicy.SPLIT),
                "shared or split"),
        "shared or split");
    value("ioengine", FioOptions::engine, "one of " + IoEngine.names());
    value("direct", FioValues::bool, "0 or 1");
    value("filename", raw -> nonEmpty(raw, "a file name"), "a file name");
    value("directory", raw -> nonEmpty(raw, "a directory"), "a directory");
    value("percentile_list", FioValues::percentiles, "percentiles like 50:99:99.9");
    value(
        "random_distribution",
        raw ->
            choice(
                raw,
                Map.of("random", "random"),
                "random; mqroute models only uniform random offsets"),
        "random");
    value(
        "kb_base",
        raw -> choice(raw, Map.of("1024", 1024, "1000", 1000), "1000 or 1024"),
        "1000 or 1024");
    value("loops", raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE), "a whole number >= 1");
    value("nrfiles", raw -> FioValues.integer(raw, 1, 1_000_000), "a whole number >= 1");
    value("fsync", raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE), "a whole number >= 0");
    value("thinktime", FioValues::microsTimeNs, FioValues.MICROS_TIME_HINT);
    value("thinktime_spin", FioValues::microsTimeNs, FioValues.MICROS_TIME_HINT);
    value(
        "thinktime_blocks",
        raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE),
        "a whole number >= 1");
    value(
        "thinktime_blocks_type",
        raw -> choice(raw, Map.of("complete", false, "issue", true), "complete or issue"),
        "complete or issue");
    value(
        "verify",
        raw -> {
          Verify.Kind k = Verify.Kind.of(raw);
          if (k == null) {
            throw new BadValue(Verify.Kind.names() + " (the checksums mqroute load computes)");
          }
          return k;
        },
        Verify.Kind.names());
    value("do_verify", FioValues::bool, "0 or 1");
    value("verify_fatal", FioValues::bool, "0 or 1");
  }

  /** Real fio job options that mqroute does not model. */
  private static final Set<String> UNSUPPORTED =
      Set.of(
          "bsrange",
          "blocksize_range",
          "bssplit",
          "blockalign",
          "blocksize_unaligned",
          "buffered",
          "clat_percentiles",
          "lat_percentiles",
          "slat_percentiles",
          "continue_on_error",
          "cpumask",
          "create_on_open",
          "end_fsync",
          "exitall",
          "fallocate",
          "fdatasync",
          "fixedbufs",
          "hipri",
          "invalidate",
          "io_size",
          "iodepth_batch",
          "iodepth_batch_complete",
          "iodepth_batch_complete_min",
          "iodepth_batch_complete_max",
          "iodepth_low",
          "log_avg_msec",
          "new_group",
          "norandommap",
          "number_ios",
          "numa_cpu_nodes",
          "numa_mem_policy",
          "random_generator",
          "randrepeat",
          "randseed",
          "rate_min",
          "rate_iops_min",
          "registerfiles",
          "rw_sequencer",
          "significant_figures",
          "sqthread_poll",
          "sync",
          "thinktime_iotime",
          "unified_rw_reporting",
          "unit_base",
          "write_bw_log",
          "write_hist_log",
          "write_iops_log",
          "write_lat_log",
          "zonemode",
          "zonesize",
          "ioscheduler",
          "prio",
          "prioclass",
          "cmdprio_percentage",
          "nice",
          "file_service_type",
          "fsync_on_close",
          "openfiles",
          "lockfile",
          "ramp_size",
          "steadystate");

  /** fio command options (not job options) that people paste from a command line. */
  private static final Set<String> COMMAND_OPTIONS =
      Set.of(
          "output",
          "output-format",
          "minimal",
          "status-interval",
          "eta",
          "eta-newline",
          "parse-only",
          "showcmd",
          "section",
          "debug",
          "version",
          "help",
          "cmdhelp",
          "enghelp",
          "client",
          "server",
          "bandwidth-log",
          "latency-log",
          "terse-version",
          "append-terse",
          "readonly",
          "alloc-size",
          "warnings-fatal",
          "max-jobs",
          "trigger",
          "aux-path",
          "idle-prof",
          "inflate-log",
          "crctest");

  private FioOptions() {}

  private static void value(String name, Parser<?> parser, String hint) {
    OPTIONS.put(name, new Def(name, false, parser, hint));
  }

  private static void flag(String name) {
    OPTIONS.put(name, new Def(name, true, FioValues::bool, "nothing, 0 or 1"));
  }

  /** The option for a name or alias, or null. */
  static Def lookup(String key) {
    return OPTIONS.get(ALIASES.getOrDefault(key, key));
  }

  /**
   * Why {@code key} is not a job option mqroute reads, or null when it is one (an alias counts).
   */
  static String problem(String key) {
    return lookup(key) != null ? null : unknown(key);
  }

  /** The one-line reason for a name that is not a known option. */
  static String unknown(String key) {
    if (isUnsupported(key)) {
      return "fio option \"" + key + "\" is not supported by mqroute";
    }
    if (isCommandOption(key)) {
      return "\"" + key + "\" is an fio command option, not a job option";
    }
    String suggestion = suggest(key);
    return "unknown fio option \""
        + key
        + "\""
        + (suggestion == null ? "" : " (did you mean \"" + suggestion + "\"?)");
  }

  static boolean isUnsupported(String key) {
    return UNSUPPORTED.contains(key);
  }

  static boolean isCommandOption(String key) {
    return COMMAND_OPTIONS.contains(key);
  }

  /** The closest known option name when it is close enough to be a typo (any case), else null. */
  static String suggest(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    int limit = Math.max(1, Math.min(2, key.length() / 3));
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (List<String> names :
        List.of(List.copyOf(OPTIONS.keySet()), List.copyOf(ALIASES.keySet()))) {
      for (String name : names) {
        int d = NameSuggester.levenshtein(lower, name);
        if (d < bestDistance) {
          bestDistance = d;
          best = name;
        }
      }
    }
    return bestDistance <= limit ? best : null;
  }

  private static String nonEmpty(String raw, String what) throws BadValue {
    if (raw.isEmpty()) {
      throw new BadValue(what);
    }
    return raw;
  }

  private static int percent(String raw) throws BadValue {
    try {
      return FioValues.integer(raw, 0, 100);
    } catch (BadValue e) {
      throw new BadValue("a percentage 0-100");
    }
  }

  private static Long iops(String raw) throws BadValue {
    try {
      return (long) FioValues.integer(raw, 0, Integer.MAX_VALUE);
    } catch (BadValue e) {
      throw new BadValue(IOPS_HINT);
    }
  }

  private static <T> T choice(String raw, Map<String, T> choices, String hint) throws BadValue {
    T v = choices.get(raw);
    if (v == null) {
      throw new BadValue(hint);
    }
    return v;
  }

  private static RwMode rw(String raw) throws BadValue {
    RwMode m = RwMode.fromFio(raw);
    if (m != null) {
      return m;
    }
    if (raw.indexOf(':') >= 0 && RwMode.fromFio(raw.substring(0, raw.indexOf(':'))) != null) {
      throw new BadValue(RW_NAMES + "; offset modifiers like randread:8 are not supported");
    }
    if (raw.contains("trim")) {
      throw new BadValue(RW_NAMES + "; trim is not modelled");
    }
    throw new BadValue(RW_NAMES);
  }

  private static IoEngine engine(String raw) throws BadValue {
    IoEngine e = IoEngine.fromFio(raw);
    if (e == null) {
      throw new BadValue("one of " + IoEngine.names());
    }
    return e;
  }
}
