package io.mqroute.actors.cpu;

/**
 * PELT utilisation that travels with a task (migrate_task_rq_fair → remove_entity_load_avg on the old CPU, attach on
 * the new one): schedutil on the CPU a woken application lands on sees the application's utilisation at once, and
 * the CPU it left stops counting it.
 *
 * <p>Each core keeps the PELT of all the work it runs ({@link CoreModel}); this class keeps each application task's
 * own PELT (its running time, frequency-invariant) and, per CPU, the sum of what migrations moved in and out. PELT is
 * linear and a moved contribution decays at the same rate as the core's own, so a core's utilisation plus its
 * adjustment is the sum over the tasks attached to it, as in the kernel. Not modelled: util_est (the estimate a task
 * brings when it is enqueued), which would make the step immediate rather than as large as the task's current util.
 *
 * <p>Shared by the Core actors and the Router of one machine, like {@link WakeTargets}; synchronized because in
 * real time the cores run on several threads. Disabled (all adjustments 0) unless {@link #enable} is called.
 */
public final class TaskUtil {
  private final double[] util;
  private final long[] utilAt;
  private final double[] adjust;
  private final long[] adjustAt;
  private long halfLifeNanos;

  public TaskUtil(int tasks, int cpus) {
    util = new double[tasks];
    utilAt = new long[tasks];
    adjust = new double[cpus];
    adjustAt = new long[cpus];
  }

  /** Track utilisation with PELT's half-life (schedutil); without this every method is a no-op. */
  public synchronized void enable(long halfLifeNanos) {
    if (halfLifeNanos <= 0) {
      throw new IllegalArgumentException("half-life must be > 0, was " + halfLifeNanos);
    }
    this.halfLifeNanos = halfLifeNanos;
  }

  /** The task ran from {@code startNanos} to {@code endNanos} at {@code freq} (fraction of the maximum). */
  public synchronized void ran(int task, long startNanos, long endNanos, double freq) {
    if (halfLifeNanos == 0 || task < 0 || task >= util.length) {
      return;
    }
    decay(task, startNanos);
    long dt = endNanos - utilAt[task];
    if (dt > 0) {
      double y = Math.pow(0.5, dt / (double) halfLifeNanos);
      util[task] = util[task] * y + (1 - y) * freq;
      utilAt[task] = endNanos;
    }
  }

  /** The scheduler moved the sleeping task from {@code from} to {@code to}: its utilisation goes with it. */
  public synchronized void migrate(int task, int from, int to, long nowNanos) {
    if (halfLifeNanos == 0 || from == to || task < 0 || task >= util.length || from < 0 || to < 0) {
      return;
    }
    decay(task, nowNanos);
    decayAdjust(from, nowNanos);
    decayAdjust(to, nowNanos);
    adjust[from] -= util[task];
    adjust[to] += util[task];
  }

  /** What migrations add to (or take from) the utilisation of {@code cpu}'s own work, at {@code nowNanos}. */
  public synchronized double adjustment(int cpu, long nowNanos) {
    if (halfLifeNanos == 0 || cpu < 0 || cpu >= adjust.length) {
      return 0;
    }
    decayAdjust(cpu, nowNanos);
    return adjust[cpu];
  }

  /** The task's own utilisation at {@code nowNanos} (for tests and reports). */
  public synchronized double util(int task, long nowNanos) {
    if (halfLifeNanos == 0) {
      return 0;
    }
    decay(task, nowNanos);
    return util[task];
  }

  private void decay(int task, long now) {
    long dt = now - utilAt[task];
    if (dt > 0) {
      util[task] *= Math.pow(0.5, dt / (double) halfLifeNanos);
      utilAt[task] = now;
    }
  }

  private void decayAdjust(int cpu, long now) {
    long dt = now - adjustAt[cpu];
    if (dt > 0) {
      adjust[cpu] *= Math.pow(0.5, dt / (double) halfLifeNanos);
      adjustAt[cpu] = now;
    }
  }
}
