package io.mqroute.bench.policies;

import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.topology.BitMask;
import io.mqroute.policies.topology.QueueMask;
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
 * {@code nth} at random ranks (what p2c does twice per decision): {@code BitMask}'s dense member
 * index, the branch-free word scan every other {@code QueueMask} inherits (e.g. the hotplug
 * filter's intersections), and the early-exit, bit-clearing loop it replaced. The mask has 7 of
 * every 8 queues registered. Ranks are drawn live (as p2c draws them): a pre-generated rank array
 * repeats, and a branch predictor learns the repetition.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MaskNthBenchmark {

  @Param({"24", "96", "256"})
  public int queues;

  private BitMask mask;
  private QueueMask wordsOnly;
  private SeededRandom ranks;
  private int weight;

  @Setup
  public void setUp() {
    mask = new BitMask(queues);
    for (int q = 0; q < queues; q++) {
      if (q % 8 != 3) {
        mask.set(q);
      }
    }
    wordsOnly =
        new QueueMask() {
          @Override
          public int capacity() {
            return mask.capacity();
          }

          @Override
          public long word(int index) {
            return mask.word(index);
          }
        };
    ranks = SeededRandom.stream(1, "ranks");
    weight = mask.weight();
  }

  @Benchmark
  public int indexed() {
    return mask.nth(ranks.nextInt(weight));
  }

  @Benchmark
  public int branchFree() {
    return wordsOnly.nth(ranks.nextInt(weight));
  }

  @Benchmark
  public int earlyExitLoop() {
    int n = ranks.nextInt(weight);
    for (int w = 0, words = mask.wordCount(); w < words; w++) {
      long bits = mask.word(w);
      int c = Long.bitCount(bits);
      if (n < c) {
        for (int k = 0; k < n; k++) {
          bits &= bits - 1;
        }
        return (w << 6) + Long.numberOfTrailingZeros(bits);
      }
      n -= c;
    }
    return -1;
  }

  /** The cost of the rank draw alone, to subtract from both. */
  @Benchmark
  public int drawOnly() {
    return ranks.nextInt(weight);
  }
}
