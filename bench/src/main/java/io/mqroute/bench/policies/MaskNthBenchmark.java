package io.mqroute.bench.policies;

import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.topology.BitMask;
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
 * {@code QueueMask.nth} at random ranks (what p2c does twice per decision) against the
 * straightforward early-exit, bit-clearing version it replaced — the evidence for the branch-free
 * form. The mask has 7 of every 8 queues registered.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MaskNthBenchmark {

    @Param({"24", "96", "256"})
    public int queues;

    private BitMask mask;
    private final int[] ranks = new int[1 << 12];
    private int i;

    @Setup
    public void setUp() {
        mask = new BitMask(queues);
        for (int q = 0; q < queues; q++) {
            if (q % 8 != 3) {
                mask.set(q);
            }
        }
        SeededRandom r = SeededRandom.stream(1, "ranks");
        for (int k = 0; k < ranks.length; k++) {
            ranks[k] = r.nextInt(mask.weight());
        }
    }

    @Benchmark
    public int branchFree() {
        return mask.nth(ranks[i++ & (ranks.length - 1)]);
    }

    @Benchmark
    public int earlyExitLoop() {
        int n = ranks[i++ & (ranks.length - 1)];
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
}
