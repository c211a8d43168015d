package io.mqroute.experiment.report;

import io.mqroute.experiment.Summary;
import io.mqroute.experiment.VariantResult;
import io.mqroute.metrics.FioNumbers;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code results.csv}: one row per variant with the numbers of {@code result.json}'s {@code
 * summary}, in RFC 4180 form (CRLF line ends, fields with a comma, quote or line break quoted,
 * quotes doubled).
 *
 * <p>Columns: {@code variant}, then one per parameter any variant overrides or a sweep varies (in
 * order of first appearance; empty where a variant keeps the base value), then {@link #METRICS}.
 * Floats have six decimals, as in the JSON. With replications the numbers are the means over them
 * ({@link VariantResult#summary()}, as the comparison table and {@code result.json}'s summary),
 * {@code replications} says how many, and the status covers all of them.
 */
public final class ResultsCsv {
  /** The columns after the parameters. Latencies are fio's {@code lat}, in nanoseconds. */
  public static final List<String> METRICS =
      List.of(
          "iops",
          "bw_bytes",
          "lat_mean_ns",
          "lat_p50_ns",
          "lat_p99_ns",
          "lat_p99.9_ns",
          "lat_p99.99_ns",
          "errors",
          "replications",
          "status",
          "digest");

  private static final String EOL = "\r\n";

  private ResultsCsv() {}

  /** The whole file. */
  public static String render(List<VariantResult> results) {
    Set<String> params = new LinkedHashSet<>();
    results.forEach(
        r -> {
          params.addAll(r.variant().params().keySet());
          params.addAll(r.variant().point().keySet());
        });
    StringBuilder sb = new StringBuilder();
    List<String> header = new ArrayList<>();
    header.add("variant");
    header.addAll(params);
    header.addAll(METRICS);
    row(sb, header);
    for (VariantResult r : results) {
      Summary s = r.summary();
      Map<String, String> own = new HashMap<>(r.variant().params());
      own.putAll(r.variant().point());
      List<String> cells = new ArrayList<>();
      cells.add(r.variant().id());
      params.forEach(p -> cells.add(own.getOrDefault(p, "")));
      cells.add(FioNumbers.fixed(s.iops(), 6));
      cells.add(Long.toString((long) s.bwBytes()));
      cells.add(FioNumbers.fixed(s.meanNs(), 6));
      cells.add(Long.toString(s.p50Ns()));
      cells.add(Long.toString(s.p99Ns()));
      cells.add(Long.toString(s.p999Ns()));
      cells.add(Long.toString(s.p9999Ns()));
      cells.add(Long.toString(s.errors()));
      cells.add(Integer.toString(r.replications()));
      cells.add(r.status());
      cells.add(r.digest());
      row(sb, cells);
    }
    return sb.toString();
  }

  /** One field, quoted when RFC 4180 requires it. */
  public static String field(String value) {
    if (value.indexOf(',') < 0
        && value.indexOf('"') < 0
        && value.indexOf('\r') < 0
        && value.indexOf('\n') < 0) {
      return value;
    }
    return '"' + value.replace("\"", "\"\"") + '"';
  }

  private static void row(StringBuilder sb, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      sb.append(i == 0 ? "" : ",").append(field(cells.get(i)));
    }
    sb.append(EOL);
  }
}
