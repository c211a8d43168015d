package io.mqroute.experiment.report;

import io.mqroute.experiment.VariantResult;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Tells the user about finished variants: a progress bar (one step per variant) on a terminal, else
 * one line per variant on {@code err}. Called from the runner's threads, in completion order.
 *
 * <p>The bar writes ANSI codes and carriage returns even into a file or pipe, so it is only used
 * when {@link System#console()} is not null (stdin and stdout are a terminal) and {@code TERM} is
 * not {@code dumb}; then it draws on {@link System#err}, which is where the CLI's {@code err} goes.
 * (With only stderr redirected the bar still goes into that file; use {@code </dev/null} to get
 * plain lines.)
 */
public final class RunProgress implements Consumer<VariantResult>, AutoCloseable {
  private final PrintWriter err;
  private final ProgressBar bar;

  private RunProgress(PrintWriter err, ProgressBar bar) {
    this.err = err;
    this.bar = bar;
  }

  /** A bar on a terminal, else {@link #lines}. */
  public static RunProgress open(String experimentName, int variants, PrintWriter err) {
    if (System.console() == null || "dumb".equals(System.getenv("TERM"))) {
      return lines(err);
    }
    ProgressBar bar =
        new ProgressBarBuilder()
            .setTaskName(experimentName)
            .setInitialMax(variants)
            .setUnit(" variants", 1)
            .setUpdateIntervalMillis(250)
            .build();
    return new RunProgress(err, bar);
  }

  /** One line per finished variant on {@code err}, never a bar. */
  public static RunProgress lines(PrintWriter err) {
    return new RunProgress(err, null);
  }

  @Override
  public void accept(VariantResult r) {
    if (bar != null) {
      bar.setExtraMessage(r.variant().id() + " " + r.status());
      bar.step();
      return;
    }
    synchronized (err) {
      err.println(line(r));
      err.flush();
    }
  }

  /** The plain line for a finished variant. */
  static String line(VariantResult r) {
    return String.format(
        Locale.ROOT,
        "mqroute: variant %s done in %.1f s wall (%.3fs virtual)",
        r.variant().id(),
        r.wallNanos() / 1e9,
        r.result().endNanos() / 1e9);
  }

  /** Finishes the bar's line (no-op for plain lines). */
  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
