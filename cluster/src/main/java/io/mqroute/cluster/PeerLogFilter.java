package io.mqroute.cluster;

import com.typesafe.config.Config;
import io.mqroute.metrics.LogRateLimit;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.event.EventStream;
import org.apache.pekko.event.LogMarker;
import org.apache.pekko.event.slf4j.Slf4jLoggingFilter;

/**
 * A node's Pekko logging filter ({@code pekko.logging-filter} in {@code mqroute-node.conf}):
 * Pekko's {@link Slf4jLoggingFilter}, except that the classes named in {@code
 * mqroute.cluster.inbound.rate-limited-log-sources} may log at most one warning and one error per
 * {@code log-interval} each. Those are the ones that log once per bad inbound frame or message
 * (Artery's Decoder and Deserializer, the compression tables): without a bound, a peer that sends
 * garbage decides how much the node writes (issue #15 item 3). What is held back is counted in
 * {@code /metrics} ({@code mqroute_inbound_total{source="log",event="lines_held_back"}}).
 */
public final class PeerLogFilter extends Slf4jLoggingFilter {
  private static final LongAdder HELD = new LongAdder();
  private static final String KEYS = "mqroute.cluster.inbound.rate-limited-log-sources";
  private static final String INTERVAL = "mqroute.cluster.inbound.log-interval";
  private final List<String> sources;
  private final LogRateLimit limit;

  public PeerLogFilter(ActorSystem.Settings settings, EventStream eventStream) {
    super(settings, eventStream);
    Config c = settings.config();
    this.sources = c.hasPath(KEYS) ? List.copyOf(c.getStringList(KEYS)) : List.of();
    Duration interval = c.hasPath(INTERVAL) ? c.getDuration(INTERVAL) : Duration.ofSeconds(10);
    this.limit = new LogRateLimit(interval.toNanos(), 256);
  }

  /** Lines held back by every node's filter in this process. */
  public static long held() {
    return HELD.sum();
  }

  private boolean allow(Class<?> logClass, String level) {
    String name = logClass.getName();
    for (String s : sources) {
      if (name.startsWith(s)) {
        if (limit.allow(level + name, System.nanoTime()) < 0) {
          HELD.increment();
          return false;
        }
        return true;
      }
    }
    return true;
  }

  @Override
  public boolean isWarningEnabled(Class<?> logClass, String logSource) {
    return super.isWarningEnabled(logClass, logSource) && allow(logClass, "W");
  }

  @Override
  public boolean isErrorEnabled(Class<?> logClass, String logSource) {
    return super.isErrorEnabled(logClass, logSource) && allow(logClass, "E");
  }

  @Override
  public boolean isWarningEnabled(Class<?> logClass, String logSource, LogMarker marker) {
    return super.isWarningEnabled(logClass, logSource, marker) && allow(logClass, "W");
  }

  @Override
  public boolean isErrorEnabled(Class<?> logClass, String logSource, LogMarker marker) {
    return super.isErrorEnabled(logClass, logSource, marker) && allow(logClass, "E");
  }
}
