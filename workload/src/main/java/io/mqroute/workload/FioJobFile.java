package io.mqroute.workload;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A parsed fio job file (or command line).
 *
 * @param source the file name as given, or {@code "command line"}
 * @param jobs the jobs in file order
 * @param globalOptions every option written in {@code [global]} sections, canonical names, values
 *     as written ({@code ""} for a bare flag): fio's JSON {@code "global options"}
 * @param warnings things fio would also only warn about, in {@code file:line: note: ...} form
 */
public record FioJobFile(
    String source, List<JobSpec> jobs, Map<String, String> globalOptions, List<String> warnings) {

  /** Immutable copies. */
  public FioJobFile {
    jobs = List.copyOf(jobs);
    globalOptions = Collections.unmodifiableMap(new LinkedHashMap<>(globalOptions));
    warnings = List.copyOf(warnings);
  }

  /** The job clones that will run: the sum of {@code numjobs}. */
  public int totalClones() {
    int n = 0;
    for (JobSpec j : jobs) {
      n += j.numjobs();
    }
    return n;
  }

  /** The number of stonewall groups (the last job's group id + 1). */
  public int groupCount() {
    return jobs.isEmpty() ? 0 : jobs.get(jobs.size() - 1).groupId() + 1;
  }

  /** The first job with this name. */
  public JobSpec job(String name) {
    for (JobSpec j : jobs) {
      if (j.name().equals(name)) {
        return j;
      }
    }
    throw new IllegalArgumentException("no job named '" + name + "' in " + source);
  }
}
