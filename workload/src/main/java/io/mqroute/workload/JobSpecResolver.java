package io.mqroute.workload;

import io.mqroute.actors.machine.ThinkTime;
import io.mqroute.metrics.PercentileList;
import io.mqroute.workload.FioValues.BadValue;
import io.mqroute.workload.FioValues.Pair;
import io.mqroute.workload.FioValues.SizeValue;
import io.mqroute.workload.JobFileLexer.RawOption;
import io.mqroute.workload.JobFileLexer.RawSection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns lexed sections into {@link JobSpec}s the way fio builds its jobs: {@code [global]} options
 * accumulate and apply to every job below them, a job's own options override them, defaults fill
 * the rest, and {@code stonewall} opens a new group (fio's {@code add_job}: only when the current
 * group already has a job).
 */
final class JobSpecResolver {

  /**
   * A typed option value and where it was written. {@code order} counts settings in the order they
   * were parsed; it, not {@code line}, says which came later, because overrides set after a job's
   * options all carry line 0 (their errors name no line).
   */
  private record Setting(
      FioOptions.Def def, String writtenKey, String raw, Object value, int line, long order) {}

  private static final long DEFAULT_BS = 4096;

  private final String source;
  private long parsed;

  JobSpecResolver(String source) {
    this.source = source;
  }

  FioJobFile resolve(List<RawSection> sections, boolean commandLine) {
    Map<String, Setting> globals = new LinkedHashMap<>();
    Map<String, String> globalStrings = new LinkedHashMap<>();
    List<JobSpec> jobs = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    int groupId = 0;
    int jobsInGroup = 0;
    for (RawSection section : sections) {
      Map<String, Setting> own = parseSection(section);
      if (section.global()) {
        own.values().forEach(s -> overlay(globals, s));
        globalStrings.putAll(writtenOptions(own));
        continue;
      }
      Map<String, Setting> effective = new LinkedHashMap<>(globals);
      // fio's get_new_job names every job after its section, so a name= in [global] names no job;
      // it is
      // kept only for the JSON "global options", where fio lists it too.
      effective.remove("name");
      own.values().forEach(s -> overlay(effective, s));
      boolean stonewall = flag(effective, "stonewall");
      if (stonewall && jobsInGroup > 0) {
        groupId++;
        jobsInGroup = 0;
      }
      jobsInGroup++;
      jobs.add(build(section, effective, own, groupId, stonewall, warnings));
    }
    if (jobs.isEmpty()) {
      String what =
          sections.isEmpty() ? "no jobs defined" : "no jobs defined (only [global] sections)";
      throw new FioParseException(
          source, 0, commandLine ? what + "; start one with --name=" : what);
    }
    return new FioJobFile(source, jobs, globalStrings, warnings);
  }

  private Map<String, Setting> parseSection(RawSection section) {
    Map<String, Setting> out = new LinkedHashMap<>();
    for (RawOption o : section.options()) {
      overlay(out, parseOption(o));
    }
    return out;
  }

  /**
   * Later settings win; for per-direction pairs an empty half keeps the earlier value (fio's rule).
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static void overlay(Map<String, Setting> into, Setting s) {
    Setting earlier = into.get(s.def().name());
    if (earlier != null && s.value() instanceof Pair p && earlier.value() instanceof Pair e) {
      Pair merged =
          new Pair(
              p.read() != null ? p.read() : e.read(), p.write() != null ? p.write() : e.write());
      s = new Setting(s.def(), s.writtenKey(), s.raw(), merged, s.line(), s.order());
    }
    into.put(s.def().name(), s);
  }

  private Setting parseOption(RawOption o) {
    FioOptions.Def def = FioOptions.lookup(o.key());
    if (def == null) {
      throw error(o.line(), FioOptions.unknown(o.key()));
    }
    String raw = o.value();
    if (raw == null) {
      if (def.flag()) {
        return new Setting(def, o.key(), null, Boolean.TRUE, o.line(), parsed++);
      }
      throw error(
          o.line(), "option \"" + o.key() + "\" needs a value (expected " + def.hint() + ")");
    }
    try {
      return new Setting(def, o.key(), raw, def.parser().parse(raw), o.line(), parsed++);
    } catch (BadValue e) {
      throw error(o.line(), badValue(raw, o.key(), def.flag() ? def.hint() : e.expected));
    }
  }

  private static String badValue(String raw, String key, String expected) {
    return "bad value \"" + raw + "\" for " + key + " (expected " + expected + ")";
  }

  private JobSpec build(
      RawSection section,
      Map<String, Setting> eff,
      Map<String, Setting> own,
      int groupId,
      boolean stonewall,
      List<String> warnings) {
    int kbBase = value(eff, "kb_base", 1024);
    String name = own.containsKey("name") ? (String) own.get("name").value() : section.name();
    RwMode rw = value(eff, "rw", RwMode.READ);
    Pair<SizeValue> bs = value(eff, "bs", new Pair<>(null, null));
    long bsRead = bytes(eff, "bs", bs.read(), kbBase, DEFAULT_BS);
    long bsWrite = bytes(eff, "bs", bs.write(), kbBase, DEFAULT_BS);
    IoEngine engine = value(eff, "ioengine", IoEngine.PSYNC);
    int iodepth = value(eff, "iodepth", 1);
    long offset = bytes(eff, "offset", value(eff, "offset", null), kbBase, 0);
    long fileSize = bytes(eff, "filesize", value(eff, "filesize", null), kbBase, 0);
    long size = bytes(eff, "size", value(eff, "size", null), kbBase, 0);
    int sizeLine = lineOf(eff, "size", section.line());
    if (size == 0 && fileSize == 0) {
      throw error(section.line(), "job \"" + name + "\" needs size= (or filesize=)");
    }
    if (fileSize > 0 && offset >= fileSize) {
      throw error(
          lineOf(eff, "offset", sizeLine),
          "offset ("
              + offset
              + " bytes) is not inside filesize ("
              + fileSize
              + " bytes) in job \""
              + name
              + "\"");
    }
    if (size == 0) {
      size = fileSize - offset;
    }
    long region = fileSize > 0 ? Math.min(size, fileSize - offset) : size;
    long largestBlock = Math.max(rw.reads() ? bsRead : 0, rw.writes() ? bsWrite : 0);
    if (largestBlock > region) {
      throw error(
          lineOf(eff, "bs", sizeLine),
          "block size ("
              + largestBlock
              + " bytes) is larger than the "
              + region
              + " bytes job \""
              + name
              + "\" does I/O to");
    }
    long runtimeNs = value(eff, "runtime", 0L);
    boolean timeBased = flag(eff, "time_based");
    if (timeBased && runtimeNs == 0) {
      throw error(
          lineOf(eff, "time_based", section.line()),
          "time_based needs runtime= (job \"" + name + "\" would never end)");
    }
    if (engine.synchronous() && iodepth > 1) {
      warnings.add(
          location(lineOf(eff, "iodepth", section.line()))
              + "note: job \""
              + name
              + "\": iodepth="
              + iodepth
              + " with synchronous ioengine "
              + engine.fioName()
              + ": queue depth capped at 1, as fio does");
    }
    Pair<Long> rateIops = value(eff, "rate_iops", new Pair<>(null, null));
    Pair<SizeValue> rateBytes = value(eff, "rate", new Pair<>(null, null));
    double rateRead = rate(eff, rateBytes.read(), rateIops.read(), bsRead, kbBase);
    double rateWrite = rate(eff, rateBytes.write(), rateIops.write(), bsWrite, kbBase);
    return new JobSpec(
        name,
        value(eff, "description", ""),
        groupId,
        stonewall,
        value(eff, "numjobs", 1),
        rw,
        readPercent(eff),
        bsRead,
        bsWrite,
        engine,
        iodepth,
        value(eff, "direct", false),
        size,
        fileSize,
        offset,
        value(eff, "nrfiles", 1),
        value(eff, "loops", 1),
        runtimeNs,
        timeBased,
        value(eff, "ramp_time", 0L),
        value(eff, "startdelay", 0L),
        rateRead,
        rateWrite,
        value(eff, "rate_process", RateProcess.LINEAR),
        thinkTime(eff, name, section.line()),
        value(eff, "cpus_allowed", CpuList.ALL),
        value(eff, "cpus_allowed_policy", CpusAllowedPolicy.SHARED),
        value(eff, "fsync", 0),
        flag(eff, "group_reporting"),
        flag(eff, "thread"),
        value(eff, "filename", ""),
        value(eff, "directory", ""),
        value(eff, "percentile_list", PercentileList.FIO_DEFAULT),
        kbBase,
        new Verify(
            value(eff, "verify", Verify.Kind.NONE),
            value(eff, "do_verify", true),
            value(eff, "verify_fatal", false)),
        section.line(),
        writtenOptions(own));
  }

  /**
   * thinktime= and its companions; the companions alone would be ignored by fio, so they are
   * refused here.
   */
  private ThinkTime thinkTime(Map<String, Setting> eff, String name, int sectionLine) {
    long think = value(eff, "thinktime", 0L);
    long spin = value(eff, "thinktime_spin", 0L);
    if (think == 0) {
      for (String companion :
          List.of("thinktime_spin", "thinktime_blocks", "thinktime_blocks_type")) {
        if (eff.containsKey(companion)) {
          throw error(
              lineOf(eff, companion, sectionLine),
              companion + " needs thinktime= in job \"" + name + "\" (without it fio ignores it)");
        }
      }
      return ThinkTime.NONE;
    }
    if (spin > think) {
      throw error(
          lineOf(eff, "thinktime_spin", sectionLine),
          "thinktime_spin ("
              + spin
              + " ns) is longer than thinktime ("
              + think
              + " ns) in job \""
              + name
              + "\"");
    }
    return new ThinkTime(
        think,
        spin,
        value(eff, "thinktime_blocks", 1),
        value(eff, "thinktime_blocks_type", Boolean.FALSE));
  }

  /**
   * rwmixread / rwmixwrite: whichever was set last decides (HOWTO: "the latter ... override");
   * overrides are set after the job's own options, so an overriding rwmixread beats a written
   * rwmixwrite.
   */
  private static int readPercent(Map<String, Setting> eff) {
    Setting read = eff.get("rwmixread");
    Setting write = eff.get("rwmixwrite");
    if (write != null && (read == null || write.order() > read.order())) {
      return 100 - (Integer) write.value();
    }
    return read != null ? (Integer) read.value() : 50;
  }

  /**
   * The options of one section for fio's JSON {@code "job options"} / {@code "global options"}:
   * every option as written, bare flags included, because fio's {@code add_to_dump_list} records
   * every parsed option; a bare flag has no value there, which fio's JSON writes as {@code ""}.
   */
  private static Map<String, String> writtenOptions(Map<String, Setting> own) {
    Map<String, String> out = new LinkedHashMap<>();
    for (Setting s : own.values()) {
      out.put(s.def().name(), s.raw() == null ? "" : s.raw());
    }
    return out;
  }

  @SuppressWarnings("unchecked")
  private static <T> T value(Map<String, Setting> eff, String key, T fallback) {
    Setting s = eff.get(key);
    return s == null ? fallback : (T) s.value();
  }

  private static boolean flag(Map<String, Setting> eff, String key) {
    return Boolean.TRUE.equals(value(eff, key, Boolean.FALSE));
  }

  /**
   * One direction's cap in I/Os per second, 0 for none. fio's __setup_rate: rate= (bytes/s) wins
   * over rate_iops=, converted with that direction's block size.
   */
  private double rate(
      Map<String, Setting> eff, SizeValue bytesPerSecond, Long iops, long bs, int kbBase) {
    if (bytesPerSecond != null) {
      return bytes(eff, "rate", bytesPerSecond, kbBase, 0) / (double) bs;
    }
    return iops == null ? 0 : iops;
  }

  private long bytes(Map<String, Setting> eff, String key, SizeValue v, int kbBase, long fallback) {
    if (v == null) {
      return fallback;
    }
    try {
      return v.bytes(kbBase);
    } catch (ArithmeticException e) {
      Setting s = eff.get(key);
      throw error(
          s.line(),
          badValue(s.raw(), s.writtenKey(), FioValues.SIZE_HINT + "; the size is too large"));
    }
  }

  private static int lineOf(Map<String, Setting> eff, String key, int fallback) {
    Setting s = eff.get(key);
    return s == null ? fallback : s.line();
  }

  private String location(int line) {
    return FioParseException.COMMAND_LINE.equals(source)
        ? "command line argument " + line + ": "
        : source + ":" + line + ": ";
  }

  private FioParseException error(int line, String detail) {
    return new FioParseException(source, line, detail);
  }
}
