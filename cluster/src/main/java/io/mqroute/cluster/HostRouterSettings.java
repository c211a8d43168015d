package io.mqroute.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import io.mqroute.policies.NameSuggester;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.strategy.BackgroundAdmission;
import io.mqroute.policies.strategy.Strategies;
import java.time.Duration;
import java.util.Objects;
import java.util.function.IntSupplier;

/**
 * What a {@link HostRouter} is built from: its selector and routing slots, how many requests it
 * sends to one queue at once, and background admission with the experiment format's router keys.
 *
 * @param selector a {@link Selectors} name ({@code round-robin}, {@code p2c}, ...)
 * @param maxQueues routing slots, i.e. queues the router can use at once
 * @param seed seed of the routing random stream
 * @param queueWindow requests sent to one queue at once; more wait on the host (re-routable)
 * @param admission background admission: per-queue (fuse-over-io-uring) or global (/dev/fuse,
 *     virtio-fs)
 * @param maxBackground max_background, 1..65535
 * @param congestionThreshold congestion_threshold, 0..65535
 * @param suspectAfter how long a queue with requests outstanding may answer none before it is
 *     suspected ({@link RemoteQueue}), and the fence its requests carry; null: never suspected, no
 *     fence (then only membership takes a queue away)
 */
public record HostRouterSettings(
    String selector,
    int maxQueues,
    long seed,
    int queueWindow,
    BackgroundAdmission.Mode admission,
    int maxBackground,
    int congestionThreshold,
    Duration suspectAfter) {
  /**
   * virtiofsd's FUSE_INIT answer: the host's default, so that admission does not throttle unless
   * asked to.
   */
  public static final int DEFAULT_MAX_BACKGROUND = 65535;

  /** The default of {@code suspect-after}; see reference.conf for the measurement it comes from. */
  public static final Duration DEFAULT_SUSPECT_AFTER = Duration.ofMillis(250);

  /** {@code suspect-after} may be 1 ms .. 60 s ({@code off}: never). */
  static final Duration MAX_SUSPECT_AFTER = Duration.ofSeconds(60);

  public HostRouterSettings {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(admission, "admission");
    if (maxQueues < 1) {
      throw new IllegalArgumentException("maxQueues must be >= 1, was " + maxQueues);
    }
    if (queueWindow < 1) {
      throw new IllegalArgumentException("queueWindow must be >= 1, was " + queueWindow);
    }
    if (suspectAfter != null
        && (suspectAfter.compareTo(Duration.ofMillis(1)) < 0
            || suspectAfter.compareTo(MAX_SUSPECT_AFTER) > 0)) {
      throw new IllegalArgumentException(
          "suspect-after must be 1ms..60s or off, was " + suspectAfter.toMillis() + "ms");
    }
    // the admission's own builder checks the two limits, with the experiment format's key names
    BackgroundAdmission.newBuilder()
        .maxBackground(maxBackground)
        .congestionThreshold(congestionThreshold);
  }

  /**
   * Per-queue admission with max-background {@value #DEFAULT_MAX_BACKGROUND} (3/4 of it congested),
   * suspicion after {@link #DEFAULT_SUSPECT_AFTER}.
   */
  public HostRouterSettings(String selector, int maxQueues, long seed, int queueWindow) {
    this(
        selector,
        maxQueues,
        seed,
        queueWindow,
        BackgroundAdmission.Mode.PER_QUEUE,
        DEFAULT_MAX_BACKGROUND,
        DEFAULT_MAX_BACKGROUND * 3 / 4,
        DEFAULT_SUSPECT_AFTER);
  }

  /** Round robin over up to 64 queues, 64 requests sent to each at once. */
  public static HostRouterSettings defaults() {
    return new HostRouterSettings("round-robin", 64, 1, 64);
  }

  /**
   * The same settings with {@code mode} admission and {@code max} max_background (3/4 of it
   * congested).
   */
  public HostRouterSettings withAdmission(BackgroundAdmission.Mode mode, int max) {
    return new HostRouterSettings(
        selector, maxQueues, seed, queueWindow, mode, max, max * 3 / 4, suspectAfter);
  }

  /** The same settings with {@code after} as suspect-after (null: off). */
  public HostRouterSettings withSuspectAfter(Duration after) {
    return new HostRouterSettings(
        selector,
        maxQueues,
        seed,
        queueWindow,
        admission,
        maxBackground,
        congestionThreshold,
        after);
  }

  /** The admission counters for {@code queues} slots. */
  BackgroundAdmission newAdmission() {
    return BackgroundAdmission.newBuilder()
        .mode(admission)
        .maxBackground(maxBackground)
        .congestionThreshold(congestionThreshold)
        .queues(maxQueues)
        .build();
  }

  /**
   * From a config block with {@code selector}, {@code max-queues}, {@code seed}, {@code
   * queue-window} and the experiment format's router keys {@code admission} (per-queue | global),
   * {@code max-background} and {@code congestion-threshold} (default 3/4 of max-background). A bad
   * value is one line naming the key.
   */
  public static HostRouterSettings fromConfig(Config c) {
    String adm = c.getString("admission");
    BackgroundAdmission.Mode mode =
        switch (adm) {
          case "per-queue" -> BackgroundAdmission.Mode.PER_QUEUE;
          case "global" -> BackgroundAdmission.Mode.GLOBAL;
          default ->
              throw new NodeConfigException(
                  "mqroute.cluster.host.admission: "
                      + NameSuggester.unknown("admission", adm, Strategies.ADMISSION));
        };
    int max =
        hostKey(
            "max-background",
            () ->
                BackgroundAdmission.newBuilder()
                    .maxBackground(c.getInt("max-background"))
                    .build()
                    .maxBackground());
    int congestion =
        hostKey(
            "congestion-threshold",
            () ->
                c.hasPath("congestion-threshold")
                    ? BackgroundAdmission.newBuilder()
                        .congestionThreshold(c.getInt("congestion-threshold"))
                        .build()
                        .congestionThreshold()
                    : max * 3 / 4);
    Duration suspect = suspectAfter(c);
    return new HostRouterSettings(
        c.getString("selector"),
        c.getInt("max-queues"),
        c.getLong("seed"),
        c.getInt("queue-window"),
        mode,
        max,
        congestion,
        suspect);
  }

  private static Duration suspectAfter(Config c) {
    if (c.getValue("suspect-after").unwrapped() instanceof String v && v.equals("off")) {
      return null;
    }
    Duration d;
    try {
      d = c.getDuration("suspect-after");
    } catch (ConfigException e) {
      throw new NodeConfigException(
          "mqroute.cluster.host.suspect-after: a duration (e.g. 250ms) or off, was "
              + c.getValue("suspect-after").render());
    }
    if (d.compareTo(Duration.ofMillis(1)) < 0 || d.compareTo(MAX_SUSPECT_AFTER) > 0) {
      throw new NodeConfigException(
          "mqroute.cluster.host.suspect-after: 1ms..60s or off, was " + d.toMillis() + "ms");
    }
    return d;
  }

  private static int hostKey(String key, IntSupplier parse) {
    try {
      return parse.getAsInt();
    } catch (IllegalArgumentException | ConfigException e) {
      throw new NodeConfigException("mqroute.cluster.host." + key + ": " + e.getMessage());
    }
  }
}
