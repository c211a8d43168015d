package io.mqroute.workload;

import io.mqroute.actors.machine.IoPattern;
import io.mqroute.actors.machine.JobControl;
import io.mqroute.actors.machine.SteadyState;
import io.mqroute.policies.NameSuggester;
import io.mqroute.workload.FioValues.BadValue;
import io.mqroute.workload.FioValues.Parser;
import java.util.HashMap;
import java.util.HashSet;
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
  record Def(String name, boolean flag, Parser<?> parser, String hint, boolean recorded) {
    Def(String name, boolean flag, Parser<?> parser, String hint) {
      this(name, flag, parser, hint, false);
    }
  }

  private static final Map<String, Def> OPTIONS = new LinkedHashMap<>();

  /** Value options fio also takes bare; written bare, their value is {@code ""}. */
  private static final Set<String> BARE_IS_EMPTY = new HashSet<>();

  private static final Map<String, String> ALIASES =
      Map.of(
          "readwrite", "rw",
          "blocksize", "bs",
          "wait_for_previous", "stonewall",
          "timeout", "runtime", // fio's options.c: runtime's alias
          "blocksize_range", "bsrange",
          "ba", "blockalign",
          "io_limit", "io_size",
          "ratemin", "rate_min",
          "fill_fs", "fill_device",
          "nr_files", "nrfiles");

  private static final String STEADY_HINT =
      "iops, iops_slope, bw, bw_slope, lat or lat_slope with a limit, like iops:10% or"
          + " bw_slope:1%";
  private static final String FILE_SERVICE_HINT =
      "roundrobin, sequential or random, with an optional :N (I/Os per file)";
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
    oneOf(
        "rate_process",
        Map.of("linear", RateProcess.LINEAR, "poisson", RateProcess.POISSON),
        "linear or poisson");
    value("cpus_allowed", FioValues::cpuList, "a CPU list like 0-3,8,10-11");
    value("numa_cpu_nodes", FioValues::cpuList, "a NUMA node list like 0-1,3");
    oneOf(
        "cpus_allowed_policy",
        Map.of("shared", CpusAllowedPolicy.SHARED, "split", CpusAllowedPolicy.SPLIT),
        "shared or split");
    value("ioengine", FioOptions::engine, "one of fio's I/O engines");
    oneOf("stat_type", words("stat", "lstat", "statx"), "stat, lstat or statx");
    value("direct", FioValues::bool, "0 or 1");
    value("buffered", FioValues::bool, "0 or 1");
    value("clat_percentiles", FioValues::bool, "0 or 1");
    value("lat_percentiles", FioValues::bool, "0 or 1");
    value("slat_percentiles", FioValues::bool, "0 or 1");
    value("bwavgtime", raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE), "milliseconds >= 1");
    value("iopsavgtime", raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE), "milliseconds >= 1");
    value("log_avg_msec", raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE), "milliseconds >= 0");
    for (String log : List.of("write_lat_log", "write_bw_log", "write_iops_log")) {
      value(log, raw -> nonEmpty(raw, "a file name prefix"), "a file name prefix");
    }
    // fio's str_write_*_log_cb take no value too: the logs are then named after the job
    BARE_IS_EMPTY.addAll(List.of("write_lat_log", "write_bw_log", "write_iops_log"));
    value("bssplit", FioValues::bssplit, FioValues.BSSPLIT_HINT);
    value(
        "bsrange",
        raw -> FioValues.commaPair(raw, FioValues::range, FioValues.RANGE_HINT),
        FioValues.RANGE_HINT);
    value(
        "blockalign",
        raw -> FioValues.pair(raw, FioValues::positiveSize, FioValues.SIZE_HINT),
        FioValues.SIZE_HINT);
    value("number_ios", raw -> FioValues.longInteger(raw, 0), "a whole number >= 0");
    value("zonesize", FioValues::positiveSize, FioValues.SIZE_HINT);
    value("zonerange", FioValues::positiveSize, FioValues.SIZE_HINT);
    value("zoneskip", FioValues::size, FioValues.SIZE_HINT);
    value("openfiles", raw -> FioValues.integer(raw, 0, 1_000_000), "a whole number >= 0");
    value("file_service_type", FioOptions::fileService, FILE_SERVICE_HINT);
    value("max_open_zones", raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE), "a whole number");
    value("io_size", FioValues::positiveSize, FioValues.SIZE_HINT);
    value("offset_increment", FioValues::size, FioValues.SIZE_HINT);
    value("fill_device", FioValues::bool, "0 or 1");
    value("rate_min", raw -> FioValues.pair(raw, FioValues::size, RATE_HINT), RATE_HINT);
    value("rate_iops_min", raw -> FioValues.pair(raw, one -> iops(one), IOPS_HINT), IOPS_HINT);
    value("ratecycle", raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE), "milliseconds >= 1");
    oneOf("zonemode", words("none", "strided", "zbd"), "none, strided or zbd");
    value(
        "rw_sequencer",
        raw -> {
          if (raw.equals("sequential")) {
            return raw;
          }
          if (raw.equals("identical")) {
            throw new BadValue(
                "rw_sequencer=identical (repeating an offset) is not modelled", true);
          }
          throw new BadValue("sequential or identical");
        },
        "sequential or identical");
    value("filename", raw -> nonEmpty(raw, "a file name"), "a file name");
    value("directory", raw -> nonEmpty(raw, "a directory"), "a directory");
    value("percentile_list", FioValues::percentiles, "percentiles like 50:99:99.9");
    value("random_distribution", FioValues::distribution, FioValues.DISTRIBUTION_HINT);
    value("random_sequence_stride", FioValues::bool, "0 or 1");
    oneOf("kb_base", Map.of("1024", 1024, "1000", 1000), "1000 or 1024");
    value("loops", raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE), "a whole number >= 1");
    value("nrfiles", raw -> FioValues.integer(raw, 1, 1_000_000), "a whole number >= 1");
    value("fsync", raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE), "a whole number >= 0");
    value("thinktime", FioValues::microsTimeNs, FioValues.MICROS_TIME_HINT);
    value("thinktime_spin", FioValues::microsTimeNs, FioValues.MICROS_TIME_HINT);
    value(
        "thinktime_blocks",
        raw -> FioValues.integer(raw, 1, Integer.MAX_VALUE),
        "a whole number >= 1");
    oneOf("thinktime_blocks_type", Map.of("complete", false, "issue", true), "complete or issue");
    value(
        "verify",
        raw -> {
          String m = raw.toLowerCase(Locale.ROOT);
          if (!Verify.FIO_METHODS.contains(m)) {
            throw new BadValue("one of fio's methods: " + String.join(", ", Verify.FIO_METHODS));
          }
          return m;
        },
        "one of fio's verify methods, like md5 or crc32c");
    value("do_verify", FioValues::bool, "0 or 1");
    value(
        "verify_backlog",
        raw -> (int) Math.min(Integer.MAX_VALUE, FioValues.longInteger(raw, 0)),
        "a number of blocks >= 0");
    value(
        "verify_backlog_batch",
        raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE),
        "a number of blocks >= 0");
    flag("new_group");
    value("steadystate", FioOptions::steadyState, STEADY_HINT);
    value("steadystate_duration", FioValues::timeNs, FioValues.TIME_HINT);
    value("steadystate_ramp_time", FioValues::timeNs, FioValues.TIME_HINT);
    value("steadystate_check_interval", FioValues::timeNs, FioValues.TIME_HINT);
    value("wait_for", raw -> nonEmpty(raw, "a job name"), "a job name");
    flag("exitall");
    oneOf(
        "exit_what",
        Map.of(
            "group", JobControl.ExitWhat.GROUP,
            "stonewall", JobControl.ExitWhat.STONEWALL,
            "all", JobControl.ExitWhat.ALL),
        "group, stonewall or all");
    value("flow_id", raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE), "a whole number >= 0");
    // fio's FLOW_MAX_WEIGHT is 1000
    value("flow", raw -> FioValues.integer(raw, 0, 1000), "a weight 0-1000");
    value(
        "flow_sleep",
        raw -> FioValues.integer(raw, 0, Integer.MAX_VALUE) * 1000L,
        "microseconds >= 0");
    value("verify_fatal", FioValues::bool, "0 or 1");
  }

  /**
   * fio options the model has no counterpart for but that change nothing it models, grouped by why;
   * a job may use them, and the run prints one note per option naming the reason (nothing is
   * ignored silently). Options of fio's engines ({@link FioTable.Option#engineOption()}) are
   * recorded the same way: the model maps the engine to its family and has no counterpart for the
   * engine's own settings.
   */
  static final Map<String, String> RECORDED = new LinkedHashMap<>();

  /** fio options the model cannot honour, with why: refused with the job's line. */
  static final Map<String, String> REFUSED = new LinkedHashMap<>();

  private static final String FILES =
      "sets up, names or opens files; the model has no files to manage (each clone's region is its"
          + " own)";
  private static final String DATA = "chooses the data written; the model carries no data";
  private static final String MEMORY = "places buffers in memory; the model has no memory";
  private static final String SCHEDULING =
      "runs commands or sets process properties outside the model";
  private static final String REPORTING =
      "changes only what fio measures, logs or prints; mqroute reports every measurement";
  private static final String BATCHING =
      "batches submissions or reaps; the model submits and reaps every I/O on its own (as fio"
          + " with iodepth_batch=1, iodepth_batch_complete=1, iodepth_low=iodepth)";
  private static final String ERRORS =
      "handles errors; the model's jobs count errors and go on (as with continue_on_error)";
  private static final String RANDOM =
      "seeds fio's random numbers; the model's come from the experiment's seed (one stream per job"
          + " clone), so a run is repeatable whatever this says";

  static {
    put(
        RECORDED,
        FILES,
        "filename_format",
        "unique_filename",
        "create_on_open",
        "create_serialize",
        "create_fsync",
        "create_only",
        "allow_file_create",
        "allow_mounted_write",
        "unlink",
        "unlink_each_loop",
        "fallocate",
        "file_append",
        "overwrite",
        "pre_read",
        "opendir",
        "lockfile",
        "filetype");
    RECORDED.put("invalidate", "drops the page cache for the file; the model has none");
    put(
        RECORDED,
        DATA,
        "buffer_pattern",
        "scramble_buffers",
        "buffer_compress_percentage",
        "buffer_compress_chunk",
        "refill_buffers",
        "zero_buffers",
        "dedupe_percentage",
        "dedupe_mode",
        "dedupe_working_set_percentage",
        "dedupe_global");
    put(RECORDED, MEMORY, "mem", "iomem_align", "hugepage-size", "numa_mem_policy");
    put(
        RECORDED,
        SCHEDULING,
        "nice",
        "cgroup",
        "cgroup_weight",
        "cgroup_nodelete",
        "uid",
        "gid",
        "exec_prerun",
        "exec_postrun",
        "clocksource",
        "gtod_cpu",
        "std_redirect",
        "ioscheduler");
    put(
        RECORDED,
        REPORTING,
        "gtod_reduce",
        "disable_lat",
        "disable_clat",
        "disable_slat",
        "disable_bw_measurement",
        "significant_figures",
        "unit_base",
        "unified_rw_reporting",
        "stats",
        "per_job_logs",
        "log_offset",
        "log_prio",
        "log_window_value",
        "log_compression",
        "log_store_compressed",
        "log_alternate_epoch",
        "log_entries",
        "write_hist_log",
        "log_hist_msec",
        "block_error_percentiles",
        "job_start_clock_id");
    put(
        RECORDED,
        BATCHING,
        "iodepth_batch",
        "iodepth_batch_complete_min",
        "iodepth_batch_complete_max",
        "iodepth_low",
        "io_submit_mode");
    put(RECORDED, ERRORS, "continue_on_error", "ignore_error", "error_dump");
    put(RECORDED, RANDOM, "randrepeat", "randseed", "random_generator");
    RECORDED.put(
        "norandommap",
        "keeps fio from tracking which blocks were done; the model draws random offsets with"
            + " replacement anyway, which is what norandommap does");
    RECORDED.put(
        "softrandommap",
        "matters only with fio's random map, which the model does not keep (it draws with"
            + " replacement)");
    RECORDED.put(
        "sync",
        "opens the file O_SYNC or O_DSYNC; the model's writes complete when the device has them"
            + " (it has no write-back cache to flush)");
    put(
        RECORDED,
        "tunes fio's zone handling; the model writes at write pointers and resets a zone when a"
            + " write finds every zone full",
        "zonecapacity",
        "zone_reset_threshold",
        "zone_reset_frequency",
        "read_beyond_wp",
        "ignore_zone_limits",
        "job_max_open_zones");
    RECORDED.put(
        "atomic",
        "asks for untorn (atomic) writes; the model's writes are never torn, they complete whole");
    put(
        RECORDED,
        "passes NVMe data placement or write-lifetime hints; the model's device places nothing",
        "fdp",
        "dataplacement",
        "plids",
        "plid_select",
        "write_hint");

    String flushes =
        "issues flushes (fsync, fdatasync, sync_file_range); the model's jobs issue reads and"
            + " writes only";
    put(
        REFUSED,
        flushes,
        "fdatasync",
        "end_fsync",
        "fsync_on_close",
        "sync_file_range",
        "write_barrier");
    REFUSED.put(
        "exitall_on_error",
        "ends the other jobs when one fails; the model's jobs count errors and run on");
    RECORDED.put("flow_watermark", "is deprecated: fio accepts it and does nothing with it");
    put(
        REFUSED,
        "fio's search for the queue depth that meets a latency target is not modelled",
        "latency_target",
        "latency_window",
        "latency_percentile",
        "latency_run");
    // Recorded, not refused: on the modelled path nothing reads a priority, so leaving it out is
    // what the kernel does. The FUSE request header (struct fuse_in_header) has no priority field,
    // and no block-layer I/O scheduler sits between the application and the FUSE or virtio-fs
    // queues (fuse_direct_io builds FUSE_READ / FUSE_WRITE requests from the kiocb without
    // looking at ki_ioprio), so the server sees and serves requests in arrival order.
    put(
        RECORDED,
        "sets an I/O priority, which nothing on the modelled path reads: a FUSE request carries"
            + " no priority (struct fuse_in_header has none) and no I/O scheduler sits before"
            + " the FUSE queues, so the kernel serves them in arrival order as the model does"
            + " (fio's per-priority latency split is not reported)",
        "prio",
        "prioclass",
        "priohint",
        "cmdprio",
        "cmdprio_class",
        "cmdprio_hint",
        "cmdprio_percentage",
        "cmdprio_bssplit");
    put(
        RECORDED,
        "chooses how the read-back data is checked; the model reads back what verify= wrote but"
            + " carries no data to check",
        "verify_pattern",
        "verify_interval",
        "verify_offset",
        "verify_fatal",
        "verify_dump",
        "verify_async",
        "verify_async_cpus",
        "verify_header_seed",
        "verify_write_sequence");
    put(
        REFUSED,
        "changes when or what is read back; the model reads back everything once the writes"
            + " are done (verify= with do_verify=1)",
        "verify_state_save",
        "verify_state_load",
        "verify_only",
        "experimental_verify",
        "trim_percentage",
        "trim_verify_zero",
        "trim_backlog",
        "trim_backlog_batch");
    REFUSED.put("thinktime_iotime", "fio's thinktime_iotime is not modelled");
    REFUSED.put("ramp_size", "ramp_size is not modelled (use ramp_time)");
  }

  /** Puts {@code reason} for each of {@code options} into {@code to} (RECORDED or REFUSED). */
  private static void put(Map<String, String> to, String reason, String... options) {
    for (String o : options) {
      to.put(o, reason);
    }
  }

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

  /** An option whose value is one of the words {@code choices} maps to what they mean. */
  private static void oneOf(String name, Map<String, ?> choices, String hint) {
    value(
        name,
        raw -> {
          Object v = choices.get(raw);
          if (v == null) {
            throw new BadValue(hint);
          }
          return v;
        },
        hint);
  }

  /** Words that stand for themselves (the value is the word written). */
  private static Map<String, String> words(String... names) {
    Map<String, String> m = new HashMap<>();
    for (String w : names) {
      m.put(w, w);
    }
    return m;
  }

  private static void flag(String name) {
    OPTIONS.put(name, new Def(name, true, FioValues::bool, "nothing, 0 or 1"));
  }

  /** Whether fio takes this value option bare too (its value is then {@code ""}). */
  static boolean bareIsEmpty(Def d) {
    return BARE_IS_EMPTY.contains(d.name());
  }

  /** The option for a name or alias, or null. */
  static Def lookup(String key) {
    Def d = OPTIONS.get(ALIASES.getOrDefault(key, key));
    if (d == null) {
      String canonical = FioTable.canonical(key);
      d = canonical == null ? null : OPTIONS.get(canonical);
    }
    if (d == null && recordedReason(key) != null) {
      String name = FioTable.canonical(key) != null ? FioTable.canonical(key) : key;
      return new Def(name, FioTable.option(key).bareAllowed(), raw -> raw, "a value", true);
    }
    return d;
  }

  /**
   * Why an option fio has changes nothing the model does, or null: {@link #RECORDED}, or an option
   * of one of fio's engines.
   */
  static String recordedReason(String key) {
    String name = FioTable.canonical(key);
    if (name == null) {
      return null;
    }
    String why = RECORDED.get(name);
    if (why != null) {
      return why;
    }
    FioTable.Option o = FioTable.option(key);
    if (o.source().startsWith("profile-")) {
      return "is an option of fio's "
          + o.source().substring("profile-".length())
          + " profile, which only profile= uses (fio ignores it otherwise)";
    }
    if (o.engineOption() && !REFUSED.containsKey(name)) {
      return "is an option of fio's "
          + o.source()
          + " engine code; the model maps the engine to its sync or async family and has no"
          + " counterpart for its settings";
    }
    return null;
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
      String name = FioTable.canonical(key);
      String why = REFUSED.get(name);
      return "fio option \""
          + key
          + "\" is not supported: "
          + (why != null
              ? why
              : "the model has no counterpart for it (docs/fio-jobs.md lists what it reads)");
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

  /** A real fio option (in fio's own table) that the model does not read. */
  static boolean isUnsupported(String key) {
    return FioTable.canonical(key) != null && lookup(key) == null;
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
    return (int) FioValues.wholeNumber(raw, 0, 100, "a percentage 0-100");
  }

  private static Long iops(String raw) throws BadValue {
    return FioValues.wholeNumber(raw, 0, Integer.MAX_VALUE, IOPS_HINT);
  }

  /** Why a trim is refused: fio trims a file with ioctl(BLKDISCARD) (os/os-linux.h os_trim). */
  static final String TRIM_ON_FUSE =
      "fio trims a file with ioctl(BLKDISCARD), which FUSE passes to the server as FUSE_IOCTL:"
          + " libfuse's passthrough_hp answers ENOSYS (measured: the first trim fails with ENOTTY,"
          + " fio's err=25) and no modelled server discards; only ioengine=falloc trims a file, with"
          + " a hole-punching fallocate";

  /** {@code rw=} and its offset modifier ({@code randread:8}, {@code read:4k}), or null. */
  record RwValue(RwMode mode, String modifier) {}

  private static RwValue rw(String raw) throws BadValue {
    int colon = raw.indexOf(':');
    String name = colon >= 0 ? raw.substring(0, colon) : raw;
    String modifier = colon >= 0 ? raw.substring(colon + 1).trim() : null;
    RwMode m = RwMode.fromFio(name.trim());
    if (m == null && name.contains("trim")) { // trimwrite, randtrimwrite
      throw new BadValue(
          TRIM_ON_FUSE + " (its trim-then-write modes are not modelled with falloc either)", true);
    }
    if (m == null) {
      throw new BadValue(RW_NAMES + ", with an optional offset modifier like randread:8");
    }
    if (modifier != null) {
      if (m.isRandom()) {
        FioValues.integer(modifier, 1, Integer.MAX_VALUE); // I/Os per new random offset
      } else {
        // bytes skipped after each I/O; negative goes backwards
        FioValues.size(modifier.startsWith("-") ? modifier.substring(1) : modifier);
      }
    }
    return new RwValue(m, modifier);
  }

  /** {@code steadystate=}: what is judged and the limit (str_steadystate_cb). */
  record SteadyValue(SteadyState.Metric metric, boolean slope, boolean percent, double limit) {}

  private static SteadyValue steadyState(String raw) throws BadValue {
    int colon = raw.indexOf(':');
    if (colon < 0) {
      throw new BadValue(STEADY_HINT + " (fio: a threshold must be given with the criterion)");
    }
    String name = raw.substring(0, colon).trim();
    String limit = raw.substring(colon + 1).trim();
    boolean slope = name.endsWith("_slope");
    SteadyState.Metric metric =
        switch (slope ? name.substring(0, name.length() - "_slope".length()) : name) {
          case "iops" -> SteadyState.Metric.IOPS;
          case "bw" -> SteadyState.Metric.BW;
          case "lat" -> SteadyState.Metric.LAT;
          default -> throw new BadValue(STEADY_HINT);
        };
    if (limit.endsWith("%")) {
      return new SteadyValue(metric, slope, true, decimal(limit.substring(0, limit.length() - 1)));
    }
    return switch (metric) {
      case IOPS -> new SteadyValue(metric, slope, false, decimal(limit));
      case BW -> new SteadyValue(metric, slope, false, FioValues.size(limit).bytes(1024));
      case LAT -> {
        if (limit.chars().allMatch(Character::isDigit)) {
          throw new BadValue("a latency limit with a unit, like lat:500us, or a percentage");
        }
        yield new SteadyValue(metric, slope, false, FioValues.timeNs(limit));
      }
    };
  }

  private static double decimal(String raw) throws BadValue {
    try {
      double v = Double.parseDouble(raw.trim());
      if (!(v >= 0) || Double.isInfinite(v)) {
        throw new BadValue(STEADY_HINT);
      }
      return v;
    } catch (NumberFormatException e) {
      throw new BadValue(STEADY_HINT);
    }
  }

  /** {@code file_service_type=} with its {@code :N}: how the next file is chosen. */
  record FileServiceValue(IoPattern.FileService kind, int perFile) {}

  private static FileServiceValue fileService(String raw) throws BadValue {
    int colon = raw.indexOf(':');
    String name = (colon < 0 ? raw : raw.substring(0, colon)).trim();
    IoPattern.FileService kind =
        switch (name) {
          case "roundrobin" -> IoPattern.FileService.ROUNDROBIN;
          case "sequential" -> IoPattern.FileService.SEQUENTIAL;
          case "random" -> IoPattern.FileService.RANDOM;
          case "zipf", "pareto", "normal", "gauss" ->
              throw new BadValue(
                  "a skewed choice of file is not modelled (roundrobin, sequential and random"
                      + " are)",
                  true);
          default -> throw new BadValue(FILE_SERVICE_HINT);
        };
    int n = colon < 0 ? 1 : FioValues.integer(raw.substring(colon + 1).trim(), 1, 1_000_000);
    return new FileServiceValue(kind, n);
  }

  private static IoEngine engine(String raw) throws BadValue {
    return IoEngine.fromFio(raw);
  }
}
