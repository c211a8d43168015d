package io.mqroute.workload;

import io.mqroute.config.BoundedFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads fio jobs in fio's own syntax, as a job file or as fio command-line arguments, into {@link
 * JobSpec}s. Bad input fails with a {@link FioParseException} naming the file and line.
 *
 * <p>Job file: INI sections; {@code [global]} sets defaults for the jobs below it (several {@code
 * [global]} sections accumulate; as in fio, any section whose name starts with {@code global} is
 * one, and a {@code name=} in it names no job); a job's own options override them. {@code
 * key=value} or a bare flag ({@code time_based}, {@code group_reporting}, {@code stonewall}, {@code
 * thread}) per line; {@code ;} and {@code #} start a comment anywhere on a line (fio's rule).
 * {@code ${VAR}} is not expanded and {@code include} is refused.
 *
 * <p>Units follow fio's HOWTO. Sizes: a plain number is bytes; {@code k, m, g, t, p} (optionally
 * with {@code b}) are powers of {@code kb_base}, so {@code 4k} = 4096 by default; {@code KiB, MiB,
 * ...} are powers of the other base (the HOWTO's compatibility mode: {@code 4KiB} = 4000 with the
 * default {@code kb_base=1024}, 4096 with {@code kb_base=1000}); suffixes ignore case; {@code 0x}
 * hex is accepted; the two-letter {@code ki, mi, ...} forms are refused because fio 3.33 and its
 * HOWTO read them differently. Times ({@code runtime}, {@code ramp_time}, {@code startdelay}): a
 * plain number is seconds; {@code us/usec, ms/msec, s, m, h, d} ({@code sec} is refused: fio reads
 * it as microseconds).
 *
 * <p>Supported options: {@code name, description, rw/readwrite, rwmixread, rwmixwrite, bs/blocksize
 * (also bs=read,write or read:write), iodepth, numjobs, size, filesize, offset, runtime/timeout,
 * time_based, ramp_time, startdelay, rate_iops (also read,write), rate_process, cpus_allowed,
 * cpus_allowed_policy, ioengine, direct, group_reporting, stonewall/wait_for_previous, thread,
 * filename, directory, percentile_list, random_distribution (only random), kb_base, loops, nrfiles,
 * fsync}. Anything else is an error (with a "did you mean" for typos). The simulator ({@link
 * FioWorkload}) refuses what it has no model for: {@code fsync > 0}, {@code nrfiles > 1} and an
 * explicit {@code direct=0} (no page cache is modelled; an unset {@code direct} is taken as direct
 * I/O).
 */
public final class FioJobParser {

  private FioJobParser() {}

  /**
   * Largest job file read (1 MiB, as an experiment's {@code workload = X.fio}): a job file is a
   * script.
   */
  public static final long MAX_FILE_BYTES = 1L << 20;

  /**
   * Parses a job file (UTF-8); errors name it as {@code file.toString()}. A file that is not a
   * regular file or is larger than {@link #MAX_FILE_BYTES} is refused with {@link
   * io.mqroute.config.BoundedFiles.Refused}.
   */
  public static FioJobFile parse(Path file) throws IOException {
    return parse(file.toString(), BoundedFiles.readString(file, MAX_FILE_BYTES));
  }

  /**
   * Parses job-file text.
   *
   * @param source the name to use in errors, e.g. the file name
   * @param text the job file's content
   */
  public static FioJobFile parse(String source, String text) {
    return new JobSpecResolver(source).resolve(JobFileLexer.lexJobFile(source, text), false);
  }

  /**
   * Parses job-file text and then sets {@code overrides} (fio option → value) in every job section,
   * after the job's own options, so they win — an experiment's way to sweep {@code iodepth} or
   * {@code numjobs} over one job file. Errors in an override name the override, not a line.
   */
  public static FioJobFile parse(String source, String text, Map<String, String> overrides) {
    return parse(source, text, overrides, 0);
  }

  /**
   * {@link #parse(String, String, Map)} on a device of {@code deviceBytes} (0: none): a job without
   * {@code size=} does I/O to all of it, as fio does to the whole file or device.
   */
  public static FioJobFile parse(
      String source, String text, Map<String, String> overrides, long deviceBytes) {
    List<JobFileLexer.RawSection> sections = new ArrayList<>();
    for (JobFileLexer.RawSection s : JobFileLexer.lexJobFile(source, text)) {
      if (s.global() || overrides.isEmpty()) {
        sections.add(s);
        continue;
      }
      List<JobFileLexer.RawOption> options = new ArrayList<>(s.options());
      overrides.forEach((k, v) -> options.add(new JobFileLexer.RawOption(k, v, 0)));
      sections.add(new JobFileLexer.RawSection(s.name(), s.global(), s.line(), options));
    }
    return new JobSpecResolver(source, deviceBytes).resolve(sections, false);
  }

  /**
   * Parses fio's command-line form, e.g. {@code --name=global --rw=randread --size=128m
   * --name=job1}: each {@code --name=X} starts job X ({@code --name=global} starts a global
   * section) and options before the first {@code --name} are global. Errors name the 1-based
   * argument.
   */
  public static FioJobFile parseCommandLine(List<String> args) {
    String source = FioParseException.COMMAND_LINE;
    return new JobSpecResolver(source).resolve(JobFileLexer.lexCommandLine(args), true);
  }

  /** {@link #parseCommandLine(List)} for varargs. */
  public static FioJobFile parseCommandLine(String... args) {
    return parseCommandLine(Arrays.asList(args));
  }
}
