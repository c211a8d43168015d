package io.mqroute.experiment.report;

import io.mqroute.config.UserError;
import io.mqroute.experiment.ExperimentResult;
import io.mqroute.experiment.FioOutput;
import io.mqroute.experiment.ResultJson;
import io.mqroute.experiment.VariantResult;
import io.mqroute.metrics.JobStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The result files of one {@code mqroute run}, in one directory:
 *
 * <ul>
 *   <li>{@code result.json}: the whole run ({@link ResultJson}; contract in {@code
 *       docs/result-json.md}); written last, so its presence means the directory is complete;
 *   <li>{@code <variant>.fio.json}: fio's {@code --output-format=json} document of each variant,
 *       exactly {@link FioJsonReport}'s text (the same document as {@code variants[i].fio});
 *   <li>{@code results.csv}: one row per variant ({@link ResultsCsv});
 *   <li>plots as PNG and SVG: {@code latency-percentiles}, {@code iops}, {@code latency-p999}, and
 *       per {@link Sweep} {@code sweep-<key>-iops} and {@code sweep-<key>-p999}.
 * </ul>
 *
 * <p>Use {@link #create} before the run (so that an unusable directory is reported before minutes
 * of simulation, not after) and {@link #write(ExperimentResult)} after it; both report problems as
 * a {@link UserError} {@code cannot write results to DIR: reason}. {@link #write(ExperimentResult,
 * Path, String, Instant, Function)} is the plain I/O underneath.
 */
public final class ResultFiles {
  public static final String RESULT_JSON = "result.json";
  public static final String RESULTS_CSV = "results.csv";
  public static final String FIO_JSON_SUFFIX = ".fio.json";

  /** {@code 20261130-054512}, in UTC so that the name does not depend on the machine's zone. */
  static final DateTimeFormatter STAMP =
      DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

  private final Path dir;
  private final Instant created;

  /** {@code <variant>.fio.json} as fio's json+ (with latency bins), set by --output-format. */
  private static volatile boolean jsonPlus;

  /** Writes {@code <variant>.fio.json} as json+ from now on (fio's --output-format=json+). */
  public static void jsonPlus(boolean on) {
    jsonPlus = on;
  }

  private ResultFiles(Path dir, Instant created) {
    this.dir = dir;
    this.created = created;
  }

  /**
   * Creates the directory (and its parents).
   *
   * @param dir the directory, or null for {@link #defaultDir} under the working directory (with a
   *     {@code -2}, {@code -3}, ... suffix if a run in the same second already used the name)
   * @param created when the run started: the {@code created} field and the default directory's name
   * @throws UserError if the directory cannot be created or is not writable
   */
  public static ResultFiles create(Path dir, String experimentName, Instant created) {
    return create(dir, Path.of(""), experimentName, created);
  }

  /** {@link #create(Path, String, Instant)} with the default directory under {@code base}. */
  static ResultFiles create(Path dir, Path base, String experimentName, Instant created) {
    Path target = dir != null ? dir : unused(defaultDir(base, experimentName, created));
    try {
      Files.createDirectories(target);
      if (!Files.isWritable(target)) {
        throw new AccessDeniedException(target.toString());
      }
    } catch (IOException e) {
      throw cannotWrite(target, e);
    }
    return new ResultFiles(target, created);
  }

  /** {@code base/results/<name>/<yyyyMMdd-HHmmss>} (UTC). */
  public static Path defaultDir(Path base, String experimentName, Instant created) {
    return base.resolve("results").resolve(experimentName).resolve(STAMP.format(created));
  }

  /** Where the files go. */
  public Path dir() {
    return dir;
  }

  /**
   * Writes every file, with the variants' overrides as sweep coordinates.
   *
   * @return the files written, {@code result.json} last
   * @throws UserError if a file cannot be written
   */
  public List<Path> write(ExperimentResult result) {
    try {
      return write(
          result,
          dir,
          version(),
          created,
          result.spec().sweepKeys().isEmpty() ? Sweep.PARAMS : ResultFiles::variantAndPoint);
    } catch (IOException e) {
      throw cannotWrite(dir, e);
    } catch (UncheckedIOException e) {
      throw cannotWrite(dir, e.getCause());
    }
  }

  /**
   * A run's sweep coordinates plus its variant's name, so that a sweep plot draws one line per
   * variant.
   */
  static Map<String, String> variantAndPoint(VariantResult r) {
    Map<String, String> m = new LinkedHashMap<>();
    m.put(Sweep.VARIANT, r.variant().name());
    m.putAll(r.variant().point());
    return m;
  }

  /**
   * Writes every file into {@code dir}, which must exist.
   *
   * @param version mqroute's version, for {@code mqroute_version} and fio's {@code "fio version"}
   * @param sweepPoint a variant's coordinates for sweep plots (see {@link Sweep#detect})
   * @return the files written, {@code result.json} last
   */
  public static List<Path> write(
      ExperimentResult result,
      Path dir,
      String version,
      Instant created,
      Function<VariantResult, Map<String, String>> sweepPoint)
      throws IOException {
    List<Path> written = new ArrayList<>();
    for (VariantResult r : result.variants()) {
      String id = r.variant().id().replaceAll("[^A-Za-z0-9._-]", "_");
      Path f = dir.resolve(id + FIO_JSON_SUFFIX);
      written.add(text(f, FioOutput.render(r, version, jsonPlus)));
      // fio's write_lat_log / write_bw_log / write_iops_log files, named as fio names them
      for (JobStats job : r.result().jobs()) {
        for (Map.Entry<String, String> log : job.logFiles().entrySet()) {
          Path logDir = dir.resolve("logs").resolve(id);
          Files.createDirectories(logDir);
          written.add(
              text(logDir.resolve(log.getKey().replaceAll("[/\\\\]", "_")), log.getValue()));
        }
      }
    }
    written.add(text(dir.resolve(RESULTS_CSV), ResultsCsv.render(result.variants())));
    ChartFiles.headless();
    written.addAll(
        ChartFiles.save(PercentileChart.of(result.variants()), dir, "latency-percentiles"));
    written.addAll(ChartFiles.save(VariantBars.iops(result.variants()), dir, "iops"));
    written.addAll(ChartFiles.save(VariantBars.p999(result.variants()), dir, "latency-p999"));
    for (Sweep s : Sweep.detect(result.variants(), sweepPoint)) {
      written.addAll(ChartFiles.save(s.iopsChart(), dir, s.fileStem() + "-iops"));
      written.addAll(ChartFiles.save(s.p999Chart(), dir, s.fileStem() + "-p999"));
    }
    String json = ResultJson.render(ResultJson.build(result, version, created));
    written.add(text(dir.resolve(RESULT_JSON), json));
    return written;
  }

  /**
   * The version {@code mqroute --version} prints: the jar's, or {@code dev} when run from classes.
   */
  public static String version() {
    String v = ResultFiles.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  private static Path text(Path file, String content) throws IOException {
    return Files.writeString(file, content, StandardCharsets.UTF_8);
  }

  private static Path unused(Path dir) {
    Path p = dir;
    for (int i = 2; Files.exists(p); i++) {
      p = dir.resolveSibling(dir.getFileName() + "-" + i);
    }
    return p;
  }

  static UserError cannotWrite(Path dir, IOException e) {
    return new UserError("cannot write results to " + dir + ": " + reason(e), e);
  }

  /** The cause in words: NIO puts only the path into the message of most of its exceptions. */
  static String reason(IOException e) {
    if (e instanceof AccessDeniedException a) {
      return "permission denied (" + a.getFile() + ")";
    }
    if (e instanceof FileAlreadyExistsException f) {
      return f.getFile() + " exists and is not a directory";
    }
    if (e instanceof NoSuchFileException n) {
      return "no such file or directory (" + n.getFile() + ")";
    }
    if (e instanceof FileSystemException f && f.getReason() != null) {
      return f.getReason() + " (" + f.getFile() + ")";
    }
    return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
  }
}
