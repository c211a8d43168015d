package io.mqroute.workload;

import io.mqroute.actors.machine.BlockSizes;
import io.mqroute.actors.machine.IoCalls;
import io.mqroute.actors.machine.IoPattern;
import io.mqroute.actors.machine.JobControl;
import io.mqroute.actors.machine.OffsetDistribution;
import io.mqroute.actors.machine.SteadyState;
import io.mqroute.actors.machine.ThinkTime;
import io.mqroute.metrics.FioNumbers;
import io.mqroute.metrics.PercentileList;
import io.mqroute.metrics.ReportOptions;
import io.mqroute.workload.FioValues.BadValue;
import io.mqroute.workload.FioValues.Pair;
import io.mqroute.workload.FioValues.SizeValue;
import io.mqroute.workload.JobFileLexer.RawOption;
import io.mqroute.workload.JobFileLexer.RawSection;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
  private final long deviceBytes;
  private final List<String> notes = new ArrayList<>();
  private final Set<String> noted = new HashSet<>();
  private long parsed;

  JobSpecResolver(String source) {
    this(source, 0);
  }

  /**
   * @param deviceBytes the modelled device's size: what a job without {@code size=} does I/O to,
   *     and what {@code size=N%} and {@code fill_device} refer to; 0 when there is none (then a job
   *     needs a size)
   */
  JobSpecResolver(String source, long deviceBytes) {
    this.source = source;
    this.deviceBytes = deviceBytes;
  }

  FioJobFile resolve(List<RawSection> sections, boolean commandLine) {
    Map<String, Setting> globals = new LinkedHashMap<>();
    Map<String, String> globalStrings = new LinkedHashMap<>();
    List<JobSpec> jobs = new ArrayList<>();
    int groupId = 0;
    int jobsInGroup = 0;
    int fioGroup = 0;
    int jobsInFioGroup = 0;
    for (RawSection section : sections) {
      Map<String, Setting> own = parseSection(section);
      if (section.global()) {
        own.values().forEach(s -> overlay(globals, s));
        globalStrings.putAll(writtenOptions(own));
        continue;
      }
      Map<String, Setting> effective = new LinkedHashMap<>(globals);
      // fio's get_new_job names every job after its section, so a name= in [global] names no job;
      // it is kept only for the JSON "global options", where fio lists it too.
      effective.remove("name");
      own.values().forEach(s -> overlay(effective, s));
      boolean stonewall = flag(effective, "stonewall");
      if (stonewall && jobsInGroup > 0) {
        groupId++;
        jobsInGroup = 0;
      }
      jobsInGroup++;
      // fio's add_job: stonewall or new_group after a job of the group opens a new td->groupid
      if ((stonewall || flag(effective, "new_group")) && jobsInFioGroup > 0) {
        fioGroup++;
        jobsInFioGroup = 0;
      }
      jobsInFioGroup++;
      jobs.add(build(section, effective, own, groupId, fioGroup, stonewall));
    }
    checkWaitFor(jobs);
    checkSteadyState(jobs);
    if (jobs.isEmpty()) {
      String what =
          sections.isEmpty() ? "no jobs defined" : "no jobs defined (only [global] sections)";
      throw new FioParseException(
          source, 0, commandLine ? what + "; start one with --name=" : what);
    }
    return new FioJobFile(source, jobs, globalStrings, notes);
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
        if (def.recorded()) {
          note(o.line(), o.key(), null);
        }
        return new Setting(def, o.key(), null, Boolean.TRUE, o.line(), parsed++);
      }
      if (FioOptions.bareIsEmpty(def)) {
        return new Setting(def, o.key(), null, "", o.line(), parsed++);
      }
      throw error(
          o.line(), "option \"" + o.key() + "\" needs a value (expected " + def.hint() + ")");
    }
    try {
      Setting s = new Setting(def, o.key(), raw, def.parser().parse(raw), o.line(), parsed++);
      if (def.recorded()) {
        note(o.line(), o.key(), raw);
      }
      return s;
    } catch (BadValue e) {
      if (e.notSupported) {
        throw error(o.line(), o.key() + "=" + raw + " is not supported: " + e.expected);
      }
      String expected = def.flag() ? def.hint() : e.expected;
      if (raw.contains("${") && !expected.contains("environment variable")) {
        expected = expected + "; " + FioValues.unsetVariable(raw);
      }
      throw error(o.line(), badValue(raw, o.key(), expected));
    }
  }

  /** One note per recorded option (the first place it is written): it has no effect, and why. */
  private void note(int line, String key, String raw) {
    noteOnce(
        key,
        line,
        key
            + (raw == null ? "" : "=" + raw)
            + " has no effect in the model: it "
            + FioOptions.recordedReason(key));
  }

  /** Adds the note {@code text} about {@code line} the first time {@code tag} comes up. */
  private void noteOnce(String tag, int line, String text) {
    if (noted.add(tag)) {
      notes.add(location(line) + "note: " + text);
    }
  }

  private static String badValue(String raw, String key, String expected) {
    return "bad value \"" + raw + "\" for " + key + " (expected " + expected + ")";
  }

  /** The error for {@code key}'s value as written, which is not {@code expected}. */
  private FioParseException badSetting(Map<String, Setting> eff, String key, String expected) {
    Setting s = eff.get(key);
    return error(s.line(), badValue(s.raw(), s.writtenKey(), expected));
  }

  private JobSpec build(
      RawSection section,
      Map<String, Setting> eff,
      Map<String, Setting> own,
      int groupId,
      int fioGroup,
      boolean stonewall) {
    int kbBase = value(eff, "kb_base", 1024);
    String name = own.containsKey("name") ? (String) own.get("name").value() : section.name();
    FioOptions.RwValue rwv = value(eff, "rw", new FioOptions.RwValue(RwMode.READ, null));
    RwMode rw = rwv.mode();
    Pair<SizeValue> bs = value(eff, "bs", new Pair<>(null, null));
    BlockSizes readSizes =
        blockSizes(eff, true, bytes(eff, "bs", bs.read(), kbBase, DEFAULT_BS), kbBase);
    BlockSizes writeSizes =
        blockSizes(eff, false, bytes(eff, "bs", bs.write(), kbBase, DEFAULT_BS), kbBase);
    long bsRead = readSizes.max();
    long bsWrite = writeSizes.max();
    IoEngine engine = value(eff, "ioengine", IoEngine.PSYNC);
    int iodepth = value(eff, "iodepth", 1);
    long offset = bytes(eff, "offset", value(eff, "offset", null), kbBase, 0);
    long fileSize = bytes(eff, "filesize", value(eff, "filesize", null), kbBase, 0);
    long size = bytes(eff, "size", value(eff, "size", null), kbBase, 0);
    int sizeLine = lineOf(eff, "size", section.line());
    if (size == 0 && fileSize == 0) {
      // fio: without size= a job does I/O to the whole file or device (fill_device too): the
      // model's device has a size, deviceBytes
      if (deviceBytes <= offset) {
        throw error(section.line(), "job \"" + name + "\" needs size= (or filesize=)");
      }
      size = deviceBytes - offset;
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
    int nrfiles = value(eff, "nrfiles", 1);
    if (size == 0) {
      // fio's setup_files: without size=, the job does every file's io_size (filesize - offset)
      size =
          Math.multiplyHigh(fileSize - offset, nrfiles) != 0
              ? Long.MAX_VALUE
              : (fileSize - offset) * nrfiles;
    }
    long region = fileSize > 0 ? Math.min(size, fileSize - offset) : size;
    if (nrfiles > 1) {
      // fio: size is the job's total over its files; each file is filesize, or size / nrfiles
      region = fileSize > 0 ? fileSize - offset : size / nrfiles;
    }
    refuseWhatTheEngineCannot(eff, engine, rw, name, section.line());
    long largestBlock = Math.max(rw.reads() ? bsRead : 0, rw.writes() || rw.trims() ? bsWrite : 0);
    if (largestBlock > region && nrfiles > 1) {
      throw error(
          lineOf(eff, "nrfiles", sizeLine),
          "each of the "
              + nrfiles
              + " files of job \""
              + name
              + "\" has "
              + region
              + " bytes, less than a block ("
              + largestBlock
              + " bytes)");
    }
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
    if (buffered(eff)) {
      Setting d = eff.get("buffered") != null ? eff.get("buffered") : eff.get("direct");
      noteOnce(
          "direct=0",
          d.line(),
          d.writtenKey()
              + "="
              + d.raw()
              + ": buffered I/O runs as direct I/O: the modelled mount sends every read and write"
              + " to the server, as FUSE does with FOPEN_DIRECT_IO (virtiofsd --cache=never,"
              + " libfuse direct_io); no page cache is modelled");
    }
    long runtimeNs = value(eff, "runtime", 0L);
    boolean timeBased = flag(eff, "time_based");
    if (timeBased && runtimeNs == 0) {
      throw error(
          lineOf(eff, "time_based", section.line()),
          "time_based needs runtime= (job \"" + name + "\" would never end)");
    }
    if (engine.synchronous() && iodepth > 1) {
      notes.add(
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
            Verify.Kind.of(value(eff, "verify", "0")),
            value(eff, "do_verify", true),
            value(eff, "verify_fatal", false),
            value(eff, "verify", "0")),
        section.line(),
        writtenOptions(own),
        pattern(eff, rwv, readSizes, writeSizes, kbBase, region, size, nrfiles, name),
        buffered(eff),
        bytes(eff, "offset_increment", value(eff, "offset_increment", null), kbBase, 0),
        minRate(eff, true, kbBase, bsRead),
        minRate(eff, false, kbBase, bsWrite),
        value(eff, "ratecycle", 1000) * 1_000_000L,
        new ReportOptions(
            value(eff, "clat_percentiles", Boolean.TRUE),
            value(eff, "lat_percentiles", Boolean.FALSE),
            value(eff, "slat_percentiles", Boolean.FALSE),
            value(eff, "bwavgtime", 500),
            value(eff, "iopsavgtime", 500),
            logPrefix(eff, "write_lat_log", name),
            logPrefix(eff, "write_bw_log", name),
            logPrefix(eff, "write_iops_log", name),
            value(eff, "log_avg_msec", 0),
            header(rw, readSizes, writeSizes, engine, iodepth)),
        value(eff, "numa_cpu_nodes", CpuList.ALL),
        new FioJobControl(
            value(eff, "wait_for", null),
            lineOf(eff, "wait_for", section.line()),
            flag(eff, "exitall"),
            value(eff, "exit_what", JobControl.ExitWhat.GROUP),
            fioGroup,
            value(eff, "flow_id", 0),
            value(eff, "flow", 0),
            value(eff, "flow_sleep", 0L),
            steadyState(eff)));
  }

  /**
   * fio's steady state: on when ss_dur is set (the criterion defaults to iops_slope:0.01%); ss_dur
   * is whole seconds (fio divides its microseconds by 10^6), ss_interval at least 1 s and ss_dur a
   * multiple of it longer than it (init.c).
   */
  private SteadyState steadyState(Map<String, Setting> eff) {
    long durNs = value(eff, "steadystate_duration", 0L);
    long intervalNs = value(eff, "steadystate_check_interval", 1_000_000_000L);
    if (durNs == 0) {
      for (String k : List.of("steadystate", "steadystate_ramp_time")) {
        if (eff.containsKey(k)) {
          noteOnce(
              k + "/nodur",
              eff.get(k).line(),
              eff.get(k).writtenKey()
                  + "="
                  + eff.get(k).raw()
                  + " has no effect without ss_dur (steadystate_duration), as in fio");
        }
      }
      return null;
    }
    Setting d = eff.get("steadystate_duration");
    long intervalUs = intervalNs / 1000;
    long durUs = durNs / 1000;
    if (intervalUs / 1000 < 1000) {
      throw error(
          lineOf(eff, "steadystate_check_interval", d.line()),
          "ss_interval must be at least 1s (fio's init.c)");
    }
    if (durUs % intervalUs != 0 || durUs <= intervalUs) {
      throw error(
          d.line(),
          "ss_dur ("
              + durUs
              + "us) must be a multiple of ss_interval ("
              + intervalUs
              + "us) and longer than it (fio's init.c)");
    }
    FioOptions.SteadyValue v =
        value(
            eff,
            "steadystate",
            new FioOptions.SteadyValue(SteadyState.Metric.IOPS, true, true, 0.01));
    return new SteadyState(
        v.metric(),
        v.slope(),
        v.percent(),
        v.limit(),
        durUs / 1_000_000L,
        value(eff, "steadystate_ramp_time", 0L),
        intervalUs / 1000);
  }

  /**
   * fio's init.c: ss_interval is one value for the whole run, and td_steadystate_init rejects a job
   * whose steady-state options differ from another's in its reporting group.
   */
  private void checkSteadyState(List<JobSpec> jobs) {
    for (JobSpec j : jobs) {
      for (JobSpec k : jobs) {
        SteadyState a = j.control().steadyState();
        SteadyState b = k.control().steadyState();
        if (a != null && b != null && a.intervalMs() != b.intervalMs()) {
          throw error(
              k.line(),
              "conflicting ss_interval "
                  + a.intervalMs()
                  + "ms and "
                  + b.intervalMs()
                  + "ms: fio needs one for every job");
        }
        boolean sameGroup = j.control().fioGroup() == k.control().fioGroup();
        if (sameGroup && a != null && !a.equals(b)) {
          throw error(
              k.line(),
              "job \""
                  + k.name()
                  + "\": steadystate options must be the same for every job of a reporting group"
                  + " (fio rejects the job)");
        }
      }
    }
  }

  /**
   * fio's wait_for names a job by name (every clone of it); the HOWTO asks for a waitee defined
   * above the waiter. The model runs a waiter within its stonewall group, so its waitee must be in
   * that group or an earlier one; a name no job has, the job's own name, or a cycle would make fio
   * start it at once or never: refused.
   */
  private void checkWaitFor(List<JobSpec> jobs) {
    for (JobSpec j : jobs) {
      String w = j.control().waitFor();
      if (w == null) {
        continue;
      }
      int line = j.control().waitForLine();
      if (w.equals(j.name())) {
        throw error(line, "wait_for=" + w + " names job \"" + w + "\" itself");
      }
      List<JobSpec> waitees = jobs.stream().filter(x -> x.name().equals(w)).toList();
      if (waitees.isEmpty()) {
        throw error(line, "wait_for=" + w + ": no job is named \"" + w + "\"");
      }
      for (JobSpec x : waitees) {
        if (x.groupId() > j.groupId()) {
          throw error(
              line,
              "wait_for="
                  + w
                  + ": job \""
                  + w
                  + "\" runs in a later stonewall group than job \""
                  + j.name()
                  + "\" (fio's HOWTO: define the waitee above the waiter)");
        }
      }
      // follow the chain: a cycle would never start
      Set<String> seen = new HashSet<>();
      String at = j.name();
      while (at != null && seen.add(at)) {
        String cur = at;
        at =
            jobs.stream()
                .filter(x -> x.name().equals(cur) && x.control().waitFor() != null)
                .map(x -> x.control().waitFor())
                .findFirst()
                .orElse(null);
      }
      if (at != null) {
        throw error(line, "wait_for=" + w + ": the jobs wait for each other in a cycle");
      }
    }
  }

  /** The JobPlan's I/O pattern: block sizes, distribution, rw modifier, blockalign, limits. */
  private IoPattern pattern(
      Map<String, Setting> eff,
      FioOptions.RwValue rwv,
      BlockSizes readSizes,
      BlockSizes writeSizes,
      int kbBase,
      long region,
      long size,
      int nrfiles,
      String name) {
    long skip = 0;
    int perOffset = 1;
    if (rwv.modifier() != null) {
      try {
        if (rwv.mode().isRandom()) {
          perOffset = FioValues.integer(rwv.modifier(), 1, Integer.MAX_VALUE);
        } else {
          // fio's ddir_seq_add may be negative: rw=read:-8k with bs=4k reads backwards
          boolean back = rwv.modifier().startsWith("-");
          long b =
              FioValues.size(back ? rwv.modifier().substring(1) : rwv.modifier()).bytes(kbBase);
          skip = back ? -b : b;
        }
      } catch (BadValue | ArithmeticException | IllegalStateException e) {
        throw badSetting(eff, "rw", "an offset modifier like randread:8");
      }
    }
    Pair<SizeValue> align = value(eff, "blockalign", new Pair<>(null, null));
    SizeValue a = rwv.mode().reads() ? align.read() : align.write();
    long alignBytes = bytes(eff, "blockalign", a, kbBase, 0);
    OffsetDistribution dist =
        ((OffsetDistribution) value(eff, "random_distribution", OffsetDistribution.UNIFORM))
            .withStride(value(eff, "random_sequence_stride", false));
    if (dist.kind() == OffsetDistribution.Kind.SEQUENCE) {
      Setting s = eff.get("random_distribution");
      BlockSizes sizes = rwv.mode().reads() ? readSizes : writeSizes;
      long blockBytes = alignBytes > 0 ? alignBytes : sizes.min();
      if (rwv.mode().isRandom() && rwv.modifier() != null) {
        throw error(
            s.line(), "random_distribution=sequence with an rw= offset modifier is not modelled");
      }
      if (region > 0 && dist.largestSequenceBlock() >= (region - sizes.max()) / blockBytes + 1) {
        // fio: "sequence access block N in base pattern out of bounds", EINVAL
        throw badSetting(
            eff,
            "random_distribution",
            "block numbers inside the job's "
                + ((region - sizes.max()) / blockBytes + 1)
                + " blocks of "
                + blockBytes
                + " bytes");
      }
    } else if (eff.containsKey("random_sequence_stride")) {
      noteOnce(
          "random_sequence_stride",
          eff.get("random_sequence_stride").line(),
          "random_sequence_stride has no effect without"
              + " random_distribution=sequence (fio ignores it too)");
    }
    long ioSize = bytes(eff, "io_size", value(eff, "io_size", null), kbBase, 0);
    boolean verifies =
        !"0".equals(value(eff, "verify", "0")) && value(eff, "do_verify", Boolean.TRUE);
    for (String k : List.of("verify_backlog", "verify_backlog_batch")) {
      if (!verifies && eff.containsKey(k)) {
        noteOnce(
            k + "/off",
            eff.get(k).line(),
            k + " has no effect without verify= and do_verify=1 (fio logs no writes then)");
      }
    }
    int openFiles = value(eff, "openfiles", 0);
    // fio's init.c: openfiles 0 or above nrfiles is nrfiles
    openFiles = openFiles == 0 || openFiles > nrfiles ? nrfiles : openFiles;
    FioOptions.FileServiceValue service =
        value(
            eff,
            "file_service_type",
            new FioOptions.FileServiceValue(IoPattern.FileService.ROUNDROBIN, 1));
    if (nrfiles > 1 && ioSize == 0 && size < region * nrfiles) {
      ioSize = size; // the files hold more than size=: fio stops after size bytes over them
    }
    if (nrfiles == 1) {
      for (String k : List.of("openfiles", "file_service_type")) {
        if (eff.containsKey(k)) {
          noteOnce(k + "/1", eff.get(k).line(), k + " has no effect with one file (nrfiles=1)");
        }
      }
    }
    String zoneMode = zoneMode(eff);
    IoPattern.Stride stride = null;
    if (zoneMode.equals("strided")) {
      stride = stride(eff, kbBase, openFiles, name);
    } else {
      for (String k : List.of("zonerange", "zoneskip")) {
        Setting z = eff.get(k);
        if (z == null) {
          continue;
        }
        if (zoneMode.equals("zbd")
            && k.equals("zoneskip")
            && bytes(eff, k, z.value() instanceof SizeValue v ? v : null, kbBase, 0) > 0) {
          throw error(z.line(), "zoneskip with zonemode=zbd (skipping zones) is not modelled");
        }
        noteOnce(
            k + "/" + zoneMode,
            z.line(),
            k
                + " has no effect with zonemode="
                + zoneMode
                + " (only zonemode=strided uses it, as in fio)");
      }
    }
    return new IoPattern(
        readSizes.isFixed() ? null : readSizes,
        writeSizes.isFixed() ? null : writeSizes,
        dist,
        skip,
        perOffset,
        alignBytes,
        ioSize,
        value(eff, "number_ios", 0L),
        verifies,
        zoneMode.equals("zbd") ? zoneBytes(eff, kbBase) : 0,
        value(eff, "max_open_zones", 0),
        nrfiles,
        nrfiles > 1 ? region : 0,
        service.kind(),
        service.perFile(),
        openFiles,
        stride,
        verifies ? value(eff, "verify_backlog", 0) : 0,
        value(eff, "verify_backlog_batch", 0));
  }

  /**
   * fio's zonemode; not written, a zonesize= makes it strided (init.c, ZONE_MODE_NOT_SPECIFIED).
   */
  private static String zoneMode(Map<String, Setting> eff) {
    String m = value(eff, "zonemode", null);
    if (m != null) {
      return m;
    }
    return eff.containsKey("zonesize") ? "strided" : "none";
  }

  /** zonemode=strided: zonesize (required, as fio), zonerange (default zonesize), zoneskip. */
  private IoPattern.Stride stride(
      Map<String, Setting> eff, int kbBase, int openFiles, String name) {
    Setting zs = eff.get("zonesize");
    Setting zm = eff.get("zonemode");
    if (zs == null) {
      throw error(
          zm.line(), "zonemode=strided needs zonesize= (fio: \"--zonesize must be specified\")");
    }
    if (openFiles > 1) {
      // init.c: "Strided zone mode only really works with 1 file", and fio turns it off
      noteOnce(
          "strided/openfiles",
          zm != null ? zm.line() : zs.line(),
          "job \""
              + name
              + "\": zonemode=strided has no effect with more than one open file (fio turns it"
              + " off)");
      return null;
    }
    long size = zoneBytes(eff, kbBase);
    SizeValue r = value(eff, "zonerange", null);
    long range = r == null ? size : bytes(eff, "zonerange", r, kbBase, size);
    long skip = bytes(eff, "zoneskip", value(eff, "zoneskip", null), kbBase, 0);
    return new IoPattern.Stride(size, range, skip);
  }

  /**
   * fio's zonesize; without it the model's zoned device has 256 MiB zones (the zone size of the SMR
   * drives fio's zbd examples are written for: their zonesize=256M).
   */
  private long zoneBytes(Map<String, Setting> eff, int kbBase) {
    SizeValue z = value(eff, "zonesize", null);
    if (z != null && z.isZones()) {
      throw badSetting(eff, "zonesize", "a size in bytes, not in zones");
    }
    return z == null ? 256L << 20 : bytes(eff, "zonesize", z, kbBase, 256L << 20);
  }

  /**
   * A log's file name prefix, or null for no log; written bare, fio names the log after the job.
   */
  private static String logPrefix(Map<String, Setting> eff, String key, String jobName) {
    String p = value(eff, key, null);
    return p != null && p.isEmpty() ? jobName : p;
  }

  /** What fio's text output says of a job when it starts. */
  private static String header(
      RwMode rw, BlockSizes read, BlockSizes write, IoEngine engine, int iodepth) {
    return "rw="
        + rw.fioName()
        + ", bs=(R) "
        + range(read)
        + ", (W) "
        + range(write)
        + ", (T) 4096B-4096B, ioengine="
        + engine.fioName()
        + ", iodepth="
        + iodepth;
  }

  private static String range(BlockSizes s) {
    return FioNumbers.num2str(s.min(), true, FioNumbers.Unit.BYTE)
        + "-"
        + FioNumbers.num2str(s.max(), true, FioNumbers.Unit.BYTE);
  }

  /** direct=0 or buffered=1, whichever was written last (fio: one is the other's inverse). */
  private static boolean buffered(Map<String, Setting> eff) {
    Setting d = eff.get("direct");
    Setting b = eff.get("buffered");
    if (b != null && (d == null || b.order() > d.order())) {
      return (Boolean) b.value();
    }
    return d != null && !((Boolean) d.value());
  }

  /**
   * rate_min= (bytes/s) or rate_iops_min= for one direction, in bytes/s; 0 for none. fio's
   * check_min_rate uses the bytes figure when both are set.
   */
  private double minRate(Map<String, Setting> eff, boolean read, int kbBase, long bs) {
    Pair<SizeValue> bytes = value(eff, "rate_min", new Pair<>(null, null));
    SizeValue b = read ? bytes.read() : bytes.write();
    if (b != null) {
      return bytes(eff, "rate_min", b, kbBase, 0);
    }
    Pair<Long> iops = value(eff, "rate_iops_min", new Pair<>(null, null));
    Long i = read ? iops.read() : iops.write();
    return i == null ? 0 : (double) i * bs;
  }

  /** bssplit= over bsrange= over bs= for one direction (fio's get_next_buflen). */
  private BlockSizes blockSizes(Map<String, Setting> eff, boolean read, long bs, int kbBase) {
    Pair<List<FioValues.SplitItem>> split = value(eff, "bssplit", null);
    List<FioValues.SplitItem> items = split == null ? null : read ? split.read() : split.write();
    if (items != null) {
      double given = 0;
      int open = 0;
      for (FioValues.SplitItem it : items) {
        if (it.percent() == null) {
          open++;
        } else {
          given += it.percent();
        }
      }
      int[] sizes = new int[items.size()];
      double[] weights = new double[items.size()];
      for (int k = 0; k < sizes.length; k++) {
        FioValues.SplitItem it = items.get(k);
        sizes[k] = blockBytes(eff, "bssplit", it.size(), kbBase);
        // fio: entries without a percentage share what the others leave, evenly
        weights[k] = it.percent() != null ? it.percent() : (100 - given) / open;
      }
      try {
        return BlockSizes.split(sizes, weights);
      } catch (IllegalArgumentException e) {
        throw badSetting(eff, "bssplit", FioValues.BSSPLIT_HINT);
      }
    }
    Pair<FioValues.SizeRange> range = value(eff, "bsrange", null);
    FioValues.SizeRange r = range == null ? null : read ? range.read() : range.write();
    if (r != null) {
      int lo = blockBytes(eff, "bsrange", r.min(), kbBase);
      int hi = blockBytes(eff, "bsrange", r.max(), kbBase);
      return BlockSizes.range(Math.min(lo, hi), Math.max(lo, hi));
    }
    if (bs > Integer.MAX_VALUE) {
      throw badSetting(eff, "bs", "a block size below 2 GiB");
    }
    return BlockSizes.fixed((int) bs);
  }

  private int blockBytes(Map<String, Setting> eff, String key, SizeValue v, int kbBase) {
    long b = bytes(eff, key, v, kbBase, 0);
    if (b < 1 || b > Integer.MAX_VALUE) {
      throw badSetting(eff, key, "block sizes from 1 byte to 2 GiB");
    }
    return (int) b;
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
    if (v.isZones()) {
      long zone = zoneBytes(eff, kbBase);
      try {
        return Math.multiplyExact(v.mantissa(), zone);
      } catch (ArithmeticException e) {
        throw badSetting(eff, key, "a size; too many zones");
      }
    }
    if (v.isPercent()) {
      if (deviceBytes == 0) {
        throw badSetting(eff, key, "a size; a percentage needs a device size");
      }
      long p = v.mantissa();
      return deviceBytes / 100 * p + deviceBytes % 100 * p / 100;
    }
    try {
      return v.bytes(kbBase);
    } catch (ArithmeticException e) {
      throw badSetting(eff, key, FioValues.SIZE_HINT + "; the size is too large");
    }
  }

  /**
   * What the engines whose I/O is another system call (falloc, ftruncate, the file-operation
   * engines) cannot do, and trims, which only falloc does.
   */
  private void refuseWhatTheEngineCannot(
      Map<String, Setting> eff, IoEngine engine, RwMode rw, String name, int sectionLine) {
    IoCalls calls = engine.calls();
    int rwLine = lineOf(eff, "rw", sectionLine);
    int engineLine = lineOf(eff, "ioengine", sectionLine);
    String job = "job \"" + name + "\": ioengine=" + engine.fioName();
    String withRw = job + " with rw=" + rw.fioName() + " is not supported: ";
    if (rw.trims() && calls != IoCalls.FALLOCATE) {
      throw error(rwLine, "rw=" + rw.fioName() + " is not supported: " + FioOptions.TRIM_ON_FUSE);
    }
    if (calls == IoCalls.FTRUNCATE && rw.reads()) {
      throw error(
          rwLine,
          withRw + "fio's ftruncate engine truncates on writes and fails every read with EINVAL");
    }
    if (calls.perFile() && (rw.isMixed() || rw.trims())) {
      throw error(
          rwLine,
          withRw
              + "the engine's calls are reported in one direction (reads, or"
              + " writes for a write-only rw=), and its fake I/Os in rw='s");
    }
    if (calls.perFile() && (eff.containsKey("bssplit") || eff.containsKey("bsrange"))) {
      throw error(
          lineOf(eff, eff.containsKey("bssplit") ? "bssplit" : "bsrange", engineLine),
          job
              + " with several block sizes is not supported: a file's fake I/Os are counted as"
              + " whole blocks of one bs=");
    }
    if (calls != IoCalls.DATA && !"0".equals(value(eff, "verify", "0"))) {
      throw error(
          lineOf(eff, "verify", engineLine),
          job + " with verify= is not supported: the engine moves no data to read back");
    }
    String zoneMode = value(eff, "zonemode", "none");
    if (calls != IoCalls.DATA && (!"none".equals(zoneMode) || eff.containsKey("zonesize"))) {
      throw error(
          lineOf(eff, eff.containsKey("zonesize") ? "zonesize" : "zonemode", engineLine),
          job + " with zones is not supported: zones hold data, the engine writes none");
    }
    boolean stats = calls == IoCalls.FILE_STAT || calls == IoCalls.DIR_STAT;
    if (!stats && eff.containsKey("stat_type")) {
      noteOnce(
          "stat_type/" + engine.fioName(),
          lineOf(eff, "stat_type", engineLine),
          "stat_type has no effect with ioengine="
              + engine.fioName()
              + " (only filestat and dirstat take it, as in fio)");
    }
    if (stats && "statx".equals(value(eff, "stat_type", "stat"))) {
      throw error(
          lineOf(eff, "stat_type", engineLine),
          "stat_type=statx is not supported: fio first resolves the name with realpath(3), which"
              + " walks every component of the absolute path (on the mount, a GETATTR and a LOOKUP"
              + " each): how many requests that is depends on where the mount is, which the job"
              + " does not say; stat and lstat are modelled");
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
