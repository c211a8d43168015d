package io.mqroute.actors.cpu;

import java.util.List;

/**
 * The timing of one CPU core as a single server of work items, without Pekko: given when an item
 * starts and its cost at full speed, when does it finish? It adds the exit latency of the deepest
 * C-state the idle period allowed and divides by the current frequency, and keeps the counters a
 * report needs. The owning Core actor calls it only from its own thread.
 */
public final class CoreModel {
  private final CState[] cstates;
  private final Governor governor;

  private long idleSince;
  private boolean busy;
  private double util; // PELT-like running utilization in [0, 1]
  private long utilAt;
  private double freq = 1.0;
  private long freqAt = Long.MIN_VALUE / 2;
  private double boost;
  private boolean boostPending;

  /**
   * sg_cpu->last_update: the last time schedutil was asked, for any reason (the boost resets after
   * a tick).
   */
  private long lastUpdate;

  /** The last scheduler event (an item starting or ending): PELT is brought up to date at each. */
  private long peltAt;

  private long busyNanos;
  private long items;
  private long exitNanos;
  private long stretchNanos;
  private long wakeups;

  /** When the item {@link #start} last started begins its work: after its C-state exit. */
  private long workStart;

  private final long[] exits;

  /**
   * @param cstates idle states, shallow to deep (empty: the core never sleeps)
   */
  public CoreModel(List<CState> cstates, Governor governor, long nowNanos) {
    this.cstates = cstates.toArray(CState[]::new);
    for (int i = 1; i < this.cstates.length; i++) {
      if (this.cstates[i].residencyNanos() < this.cstates[i - 1].residencyNanos()) {
        throw new IllegalArgumentException("C-states must be ordered by target residency");
      }
    }
    this.governor = governor;
    this.exits = new long[this.cstates.length];
    this.idleSince = nowNanos;
    this.utilAt = nowNanos;
    this.peltAt = nowNanos;
    this.lastUpdate = nowNanos;
    this.util = governor.schedutil() ? 0.0 : 1.0;
    this.freq = governor.schedutil() ? governor.minRatio() : 1.0;
  }

  /**
   * Starts an item at {@code now} (the core must not be running another) and returns when it ends.
   *
   * @param costNanos work at full frequency
   */
  public long start(long now, long costNanos) {
    return start(now, costNanos, false);
  }

  /**
   * @param iowaitWakeup the work is a thread waking up after waiting for I/O (the application
   *     reaping a completion, a ring thread woken for a request): schedutil boosts for it
   */
  public long start(long now, long costNanos, boolean iowaitWakeup) {
    if (busy) {
      throw new IllegalStateException("core already busy");
    }
    long delay = 0;
    long idle = now - idleSince;
    if (idle > 0) {
      wakeups++;
      if (iowaitWakeup) {
        iowaitWakeup(now);
      }
      decay(now, false);
      for (int i = cstates.length - 1; i >= 0; i--) {
        if (idle >= cstates[i].residencyNanos()) {
          delay = cstates[i].exitNanos();
          exits[i]++;
          break;
        }
      }
    }
    if (newPeltPeriod(now)) {
      updateFrequency(now, false);
    }
    long run = freq >= 1.0 ? costNanos : (long) Math.ceil(costNanos / freq);
    exitNanos += delay;
    stretchNanos += run - costNanos;
    busy = true;
    items++;
    long end = now + delay + run;
    busyNanos += end - now;
    workStart = now + delay;
    return end;
  }

  /**
   * When the item last started by {@link #start} or {@link #continueWith} begins its work: its
   * start plus the C-state exit it paid.
   */
  public long workStart() {
    return workStart;
  }

  /**
   * Whether an item starting at {@code now} on this idle core ends an idle period long enough for a
   * C-state (the one {@link #start} then charges an exit for).
   */
  public boolean sleptUntil(long now) {
    long idle = now - idleSince;
    return !busy && idle > 0 && cstates.length > 0 && idle >= cstates[0].residencyNanos();
  }

  /** The item that {@link #start} returned {@code endNanos} for has finished; the core is free. */
  public void finish(long endNanos) {
    decay(endNanos, true);
    if (newPeltPeriod(endNanos)) {
      updateFrequency(endNanos, false);
    }
    busy = false;
    idleSince = endNanos;
  }

  /**
   * Starts the next queued item right after the previous one, without an idle period in between.
   */
  public long continueWith(long endOfPrevious, long costNanos) {
    decay(endOfPrevious, true);
    busy = false;
    idleSince = endOfPrevious;
    return start(endOfPrevious, costNanos);
  }

  /**
   * Whether a PELT period (1024 us) began since an item last started or ended here: only then does
   * update_load_avg report a decay and call cpufreq_update_util (the tick and other enqueues are
   * not modelled), so schedutil is asked once per period under steady load, not at every context
   * switch (its iowait boost decays at each of those calls, so asking more often would undo it).
   */
  private boolean newPeltPeriod(long now) {
    if (now <= peltAt) {
      return false;
    }
    long period = Governor.PELT_PERIOD_NANOS;
    boolean crossed = Math.floorDiv(now, period) != Math.floorDiv(peltAt, period);
    peltAt = Math.max(peltAt, now);
    return crossed;
  }

  private void decay(long now, boolean wasBusy) {
    long dt = now - utilAt;
    if (dt <= 0 || !governor.schedutil()) {
      utilAt = Math.max(utilAt, now);
      return;
    }
    double y = Math.pow(0.5, dt / (double) governor.halfLifeNanos());
    // frequency-invariant PELT (x86 APERF/MPERF scaling): time busy at 40% speed is 40% of a
    // full-speed load
    util = wasBusy ? util * y + (1 - y) * freq : util * y;
    utilAt = now;
  }

  /**
   * A thread that slept in an I/O wait is enqueued on this CPU, busy or not: enqueue_task_fair asks
   * schedutil at once (cpufreq_update_util with SCHED_CPUFREQ_IOWAIT), which boosts first.
   */
  public void iowaitWakeup(long now) {
    decay(now, busy);
    updateFrequency(now, true);
  }

  /**
   * sugov_update_single_freq. sugov_iowait_boost: the first wake-up after I/O boosts to 1/8 of the
   * maximum, each further one doubles it (once per applied update); more than a tick since
   * schedutil was last asked resets it (sugov_iowait_reset: to 1/8 for an I/O wake-up, else to 0).
   * Then, outside the rate limit, sugov_iowait_apply halves a boost no new I/O wake-up asked for,
   * and the frequency follows max(util, boost).
   */
  private void updateFrequency(long now, boolean iowait) {
    if (!governor.schedutil()) {
      return;
    }
    if (boost > 0 && now - lastUpdate > Governor.TICK_NANOS) {
      boost = iowait ? Governor.IOWAIT_BOOST_MIN : 0;
      boostPending = iowait;
    } else if (iowait && !boostPending) {
      boostPending = true;
      boost = boost == 0 ? Governor.IOWAIT_BOOST_MIN : Math.min(1.0, boost * 2);
    }
    lastUpdate = now;
    if (now - freqAt < governor.rateLimitNanos()) {
      return;
    }
    double demand = util;
    if (boost > 0) {
      if (!boostPending) {
        boost /= 2;
        if (boost < Governor.IOWAIT_BOOST_MIN) {
          boost = 0;
        }
      }
      boostPending = false;
      demand = Math.max(demand, boost);
    }
    // map_util_perf / get_next_freq: the 25% headroom applies to max(util, boost)
    double next = Math.max(governor.minRatio(), Math.min(1.0, Governor.HEADROOM * demand));
    if (next != freq) {
      freq = next;
      // sugov_update_next_freq: last_freq_update_time moves only when the frequency changes
      freqAt = now;
    }
  }

  public boolean busy() {
    return busy;
  }

  public long busyNanos() {
    return busyNanos;
  }

  public long items() {
    return items;
  }

  public long wakeups() {
    return wakeups;
  }

  /** Time spent leaving C-states before work could start. */
  public long exitNanos() {
    return exitNanos;
  }

  /** Time work took beyond its full-speed cost because the core ran below its maximum frequency. */
  public long stretchNanos() {
    return stretchNanos;
  }

  /** Exits from each C-state, in the order given to the constructor. */
  public long[] cstateExits() {
    return exits.clone();
  }

  /** Current frequency as a fraction of the maximum. */
  public double frequency() {
    return freq;
  }
}
