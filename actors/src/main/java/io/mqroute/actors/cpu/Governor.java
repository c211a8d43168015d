package io.mqroute.actors.cpu;

/**
 * Frequency model of a core. {@code performance} runs at full speed; {@code schedutil} follows the
 * core's PELT utilization ({@code sugov_next_freq}: next = 1.25 × max × util), clamped to [min,
 * max] and changed at most once per rate-limit interval, so a core that was idle starts slow and
 * ramps up under load — the reason random spreading over cold cores hurts (seed 002). Threads
 * waking after I/O get the iowait boost, which doubles per wake-up from 1/8 of the maximum
 * (sugov_iowait_boost).
 *
 * @param schedutil false for the performance governor
 * @param minRatio lowest frequency as a fraction of the highest (e.g. 1.2 / 3.0 GHz = 0.4)
 * @param halfLifeNanos PELT utilization half-life (32 ms in the kernel)
 * @param rateLimitNanos minimum time between frequency changes (schedutil rate_limit_us; 1 ms)
 */
public record Governor(
    boolean schedutil, double minRatio, long halfLifeNanos, long rateLimitNanos) {
  public static final Governor PERFORMANCE = new Governor(false, 1.0, 32_000_000, 1_000_000);
  public static final Governor SCHEDUTIL = new Governor(true, 0.4, 32_000_000, 1_000_000);

  /** schedutil's headroom: it aims at 80% utilization of the chosen frequency. */
  static final double HEADROOM = 1.25;

  /** IOWAIT_BOOST_MIN: the first boost after an I/O wake-up, SCHED_CAPACITY_SCALE / 8. */
  static final double IOWAIT_BOOST_MIN = 1.0 / 8;

  /**
   * PELT's accounting period (1024 us): util_avg decays, and schedutil is asked again, once per
   * period.
   */
  static final long PELT_PERIOD_NANOS = 1_024_000;

  /** TICK_NSEC at HZ=250 (Debian's and most distributions' default). */
  static final long TICK_NANOS = 4_000_000;

  public Governor {
    if (!(minRatio > 0 && minRatio <= 1)) {
      throw new IllegalArgumentException(
          "governor min-freq-ratio must be in (0, 1], was " + minRatio);
    }
    if (halfLifeNanos <= 0 || rateLimitNanos < 0) {
      throw new IllegalArgumentException("governor half-life must be > 0 and rate-limit >= 0");
    }
  }
}
