package io.mqroute.cluster.link;

import com.typesafe.config.Config;
import io.netty.channel.EventLoopGroup;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.dispatch.DispatcherPrerequisites;
import org.apache.pekko.dispatch.ExecutorServiceConfigurator;
import org.apache.pekko.dispatch.ExecutorServiceFactory;

/**
 * A Pekko dispatcher executor that is the node's one Netty event loop ({@code executor =
 * "io.mqroute.cluster.link.NodeLoop"}, {@code mqroute-loop = KEY} from {@link #register}): the
 * node's actors and the sockets of its {@link NodeLink} share one thread, so a frame read from a
 * peer is decoded, handled by the actors and answered on the thread that the read woke, without
 * handing it to another thread (each hand-over is a wake-up: ~20 µs on an idle VM, BENCHMARKS.md
 * "Node link").
 */
public final class NodeLoop extends ExecutorServiceConfigurator {
  private static final Map<String, EventLoopGroup> LOOPS = new ConcurrentHashMap<>();
  private final EventLoopGroup loop;

  public NodeLoop(Config config, DispatcherPrerequisites prerequisites) {
    super(config, prerequisites);
    String key = config.getString("mqroute-loop");
    loop = LOOPS.get(key);
    if (loop == null) {
      throw new IllegalStateException("no node loop registered as " + key);
    }
  }

  /** Makes {@code loop} known to the dispatcher configuration under the key returned. */
  public static String register(EventLoopGroup loop) {
    String key = UUID.randomUUID().toString();
    LOOPS.put(key, loop);
    return key;
  }

  public static void unregister(String key) {
    LOOPS.remove(key);
  }

  @Override
  public ExecutorServiceFactory createExecutorServiceFactory(String id, ThreadFactory threads) {
    return () -> new OnLoop(loop);
  }

  /**
   * The loop as Pekko's executor; the node stops the loop itself after the system has terminated
   * (Pekko shuts a dispatcher's executor down when it is idle and may start it again).
   */
  private static final class OnLoop extends AbstractExecutorService {
    private final EventLoopGroup loop;
    private volatile boolean shut;

    OnLoop(EventLoopGroup loop) {
      this.loop = loop;
    }

    @Override
    public void execute(Runnable task) {
      loop.execute(task);
    }

    @Override
    public void shutdown() {
      shut = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shut = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shut;
    }

    @Override
    public boolean isTerminated() {
      return shut;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return true;
    }
  }
}
