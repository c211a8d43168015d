package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fuse-over-io-uring ring thread takes its next request only after committing the last one, also
 * when its backend is asynchronous (a DPU-like device frees the thread before the I/O completes):
 * one thread never serves more than one request's CPU work at a time.
 */
class RingThreadTest {
  @TempDir Path dir;

  @Test
  void oneRingThreadServesOneRequestAtATime() throws IOException {
    ExperimentResult r =
        ExperimentText.run(
            dir,
            "ring",
            """
        name = ring
        seed = 1
        machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none } }
        queues { kind = per-cpu, ring-size = 64 }
        device = "dpu(10us, 100us, 0)"
        workload = \"\"\"
        [j]
        ioengine=libaio
        iodepth=32
        rw=randread
        bs=4k
        size=64m
        time_based
        runtime=100ms
        cpus_allowed=0
        \"\"\"
        """);
    // the thread is busy 3 us (server-cost) on the CPU and 10 us in the device per request: at most
    // 1/13 us
    assertThat(r.variants().get(0).summary().iops()).isBetween(50_000.0, 1e9 / 13_000);
    assertThat(r.variants().get(0).result().healthy()).isTrue();
  }
}
