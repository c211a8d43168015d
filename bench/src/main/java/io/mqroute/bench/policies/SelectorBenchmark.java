package io.mqroute.bench.policies;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.selector.Selectors;
import io.mqroute.policies.topology.CpuTopology;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Nanoseconds per routing decision for every built-in selector on per-CPU queues over two NUMA
 * nodes. Before each decision one queue's {@code nr_reqs} changes, from a pre-generated stream of
 * (queue, depth, cpu, background) events whose depths are geometric with mean 3, so the threshold
 * paths of reduced-v3 are all exercised; {@link ViewUpdateBaseline} measures that update alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SelectorBenchmark {

  @Param({
    "static-cpu",
    "mq-map",
    "reduced-v3",
    "reduced-v3-fg",
    "random",
    "round-robin",
    "p2c",
    "p2c-distinct",
    "shortest",
    "single",
    "hotplug-aware"
  })
  public String selector;

  @Param({"24", "96", "256"})
  public int queues;

  private Events events;
  private QueueSelector sel;
  private SeededRandom routing;
  private int i;

  @Setup
  public void setUp() {
    events = new Events(queues, 20261130L);
    sel =
        switch (selector) {
          case "reduced-v3-fg" -> Selectors.create("reduced-v3", Map.of("foreground-only", "true"));
          case "hotplug-aware" -> Selectors.create("hotplug-aware", Map.of("inner", "reduced-v3"));
          default -> Selectors.create(selector);
        };
    routing = SeededRandom.stream(20261130L, "routing");
    sel.select(events.view, 0, false, routing); // mq-map builds its map here, not in the loop
  }

  @Benchmark
  public int decide() {
    int k = i++ & Events.MASK;
    events.view.setNrReqs(events.queue[k], events.depth[k]);
    return sel.select(events.view, events.cpu[k], events.background[k], routing);
  }

  /** Pre-generated machine and event stream shared by the benchmarks. */
  static final class Events {
    /** Long enough that branch predictors cannot learn the (periodic) event stream. */
    static final int SIZE = 1 << 16;

    static final int MASK = SIZE - 1;
    final MutableRoutingView view;
    final int[] queue = new int[SIZE];
    final int[] depth = new int[SIZE];
    final int[] cpu = new int[SIZE];
    final boolean[] background = new boolean[SIZE];

    Events(int queues, long seed) {
      view =
          MutableRoutingView.newBuilder(CpuTopology.uniform(2, queues / 2))
              .offline(queues / 2 + 1)
              .build();
      SeededRandom r = SeededRandom.stream(seed, "bench-events");
      for (int q = 0; q < queues; q++) {
        view.setNrReqs(q, geometric(r));
      }
      for (int k = 0; k < SIZE; k++) {
        queue[k] = r.nextInt(queues);
        depth[k] = geometric(r);
        cpu[k] = r.nextInt(queues);
        background[k] = r.nextInt(2) == 1;
      }
    }

    private static int geometric(SeededRandom r) {
      return Math.min(32, (int) r.nextExponential(3.0));
    }
  }
}
