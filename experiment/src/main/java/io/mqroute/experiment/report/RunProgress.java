package io.mqroute.experiment.report;

import io.mqroute.actors.machine.MachineRun;
import io.mqroute.experiment.ExperimentRunner;
import io.mqroute.experiment.Variant;
import io.mqroute.experiment.VariantResult;
import io.mqroute.runtime.NanoClock;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;

/**
 * Tells the user about finished variants: a progress bar (one step per variant) on a terminal, else
 * one line per variant on {@code err}. Called from the runner's threads, in completion order. A run
 * still going after {@link #EVERY_NANOS} of wall time says how far its simulated time has got, and
 * again every {@link #EVERY_NANOS}.
 *
 * <p>The bar writes ANSI codes and carriage returns even into a file or pipe, so it is only used
 * when {@link System#console()} is not null (stdin and stdout are a terminal) and {@code TERM} is
 * not {@code dumb}; then it draws on {@link System#err}, which is where the CLI's {@code err} goes.
 * (With only stderr redirected the bar still goes into that file; use {@code </dev/null} to get
 * plain lines.)
 */
public final class RunProgress
    implements Consumer<VariantResult>, ExperimentRunner.Watcher, AutoCloseable {
  /** How often a run that is still going says so (wall time). */
  public static final long EVERY_NANOS = 10_000_000_000L;

  private final PrintWriter err;
  private final ProgressBar bar;
  private final LongSupplier wallNanos;
  private final long everyNanos;

  private RunProgress(PrintWriter err, ProgressBar bar, LongSupplier wallNanos, long everyNanos) {
    this.err = err;
    this.bar = bar;
    this.wallNanos = wallNanos;
    this.everyNanos = everyNanos;
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
    return new RunProgress(err, bar, NanoClock.SYSTEM::nanoTime, EVERY_NANOS);
  }

  /** One line per finished variant on {@code err}, never a bar. */
  public static RunProgress lines(PrintWriter err) {
    return lines(err, NanoClock.SYSTEM::nanoTime, EVERY_NANOS);
  }

  /** {@link #lines}, with a run that is still going saying so every {@code everyNanos} of wall. */
  public static RunProgress lines(PrintWriter err, LongSupplier wallNanos, long everyNanos) {
    return new RunProgress(err, null, wallNanos, everyNanos);
  }

  /**
   * Within a variant: every {@link #EVERY_NANOS} of wall time, how far its simulated time has got
   * (of how much it plans), so that a long run is not silent; on a terminal in the bar's message.
   */
  @Override
  public LongConsumer started(Variant variant, long seed, long plannedNanos) {
    long[] next = {wallNanos.getAsLong() + everyNanos};
    long start = next[0] - everyNanos;
    return virtualNanos -> {
      long now = wallNanos.getAsLong();
      if (now < next[0]) {
        return;
      }
      next[0] = now + everyNanos;
      String where =
          String.format(
              Locale.ROOT,
              "variant %s (seed %d): %.3fs of %s simulated after %.0f s wall",
              variant.id(),
              seed,
              virtualNanos / 1e9,
              plannedNanos < 0
                  ? "at most "
                      + MachineRun.duration(MachineRun.MAX_SIMULATED_NANOS)
                      + " (size-based)"
                  : String.format(
                      Locale.ROOT,
                      "%s (%.1f%%)",
                      MachineRun.duration(plannedNanos),
                      plannedNanos == 0
                          ? 100.0
                          : Math.min(100.0, 100.0 * virtualNanos / plannedNanos)),
              (now - start) / 1e9);
      if (bar != null) {
        bar.setExtraMessage(where);
        return;
      }
      synchronized (err) {
        err.println("mqroute: " + where);
        err.flush();
      }
    };
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
