package io.mqroute.bench.policies;

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
 * The per-op harness cost inside {@link SelectorBenchmark#decide()}: event lookup and one load
 * update.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ViewUpdateBaseline {

  @Param({"24", "96", "256"})
  public int queues;

  private SelectorBenchmark.Events events;
  private int i;

  @Setup
  public void setUp() {
    events = new SelectorBenchmark.Events(queues, 20261130L);
  }

  @Benchmark
  public int updateOnly() {
    int k = i++ & SelectorBenchmark.Events.MASK;
    events.view.setNrReqs(events.queue[k], events.depth[k]);
    return events.cpu[k] + (events.background[k] ? 1 : 0);
  }
}
