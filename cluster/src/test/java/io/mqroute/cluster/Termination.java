package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.pekko.actor.typed.ActorSystem;

/**
 * Waits for a test node to stop ({@link ClusterNode#awaitTermination}) as long as its
 * coordinated-shutdown phases may take; when it does not, prints the stacks of the threads that are
 * not idle (a hang on a loaded CI machine is only ever seen there) and fails.
 */
final class Termination {
  private Termination() {}

  /** The milliseconds it took. */
  static long await(ActorSystem<?> system, String what) {
    long start = System.nanoTime();
    Duration bound = ClusterNode.shutdownBound(system);
    if (!ClusterNode.awaitTermination(system, bound)) {
      System.out.println(busyThreads());
      fail(
          "%s did not terminate within %d ms (its shutdown phases' bound)", what, bound.toMillis());
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  /** Every thread that is not parked waiting for work, with its top frames. */
  static String busyThreads() {
    StringBuilder b = new StringBuilder("threads not idle:\n");
    for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
      StackTraceElement[] s = e.getValue();
      if (s.length == 0 || idle(s)) {
        continue;
      }
      b.append("  ")
          .append(e.getKey().getName())
          .append(" (")
          .append(e.getKey().getState())
          .append(")\n")
          .append(
              Arrays.stream(s)
                  .limit(14)
                  .map(f -> "      at " + f)
                  .collect(Collectors.joining("\n")))
          .append('\n');
    }
    return b.toString();
  }

  private static boolean idle(StackTraceElement[] s) {
    String all =
        Arrays.stream(s).limit(12).map(StackTraceElement::toString).collect(Collectors.joining());
    return all.contains("ForkJoinPool.awaitWork")
        || all.contains("ThreadPoolExecutor.getTask")
        || all.contains("SelectorImpl.select")
        || all.contains("Epoll.epollWait")
        || all.contains("LightArrayRevolverScheduler")
        || all.contains("ReferenceQueue.remove")
        || all.contains("Reference.waitForReferencePendingList")
        || all.contains("Object.wait");
  }
}
