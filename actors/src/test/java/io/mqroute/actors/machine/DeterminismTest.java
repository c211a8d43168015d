package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.metrics.Digest;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The same seed gives the same results, one system at a time or several at once; another seed does
 * not.
 */
class DeterminismTest {
  private static final MachineSpec SPEC =
      TestMachines.parse(
          "machine { numa-nodes = 2, cores-per-node = 4, cpu { governor = schedutil } }\n"
              + "queues { kind = per-cpu, ring-size = 8 }\n"
              + "router { selector = reduced-v3 }\n"
              + "device = \"cpu(20us)\"\n");

  private static List<JobPlan> plans() {
    List<JobPlan> p = new ArrayList<>();
    int[] all = {0, 1, 2, 3, 4, 5, 6, 7};
    for (int j = 0; j < 4; j++) {
      p.add(
          JobPlan.of(
              j,
              "mix",
              0,
              all,
              j * 2,
              4,
              false,
              0.7,
              true,
              4096,
              8192,
              1L << 30,
              j,
              0,
              20_000_000L,
              2_000_000L,
              true,
              0,
              false));
    }
    return p;
  }

  private static String digest(long seed) {
    MachineRun.Outcome o =
        MachineRun.run("det", SPEC, plans(), i -> new JobStats(JobInfo.named("mix")), seed);
    assertThat(o.result().healthy()).isTrue();
    return Digest.of(o.result().jobs());
  }

  @Test
  void sameSeedSameDigestAlsoConcurrentlyAndAnotherSeedDiffers() throws Exception {
    String a = digest(11);
    String b = digest(11);
    CompletableFuture<String> c = CompletableFuture.supplyAsync(() -> digest(11));
    CompletableFuture<String> d = CompletableFuture.supplyAsync(() -> digest(11));
    assertThat(b).isEqualTo(a);
    assertThat(c.get()).isEqualTo(a);
    assertThat(d.get()).isEqualTo(a);
    assertThat(digest(12)).isNotEqualTo(a);
  }
}
