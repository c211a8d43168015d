package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk is one head for the whole machine: eight server threads or two queues in front of it do
 * not make eight or two disks. Random 4 KiB writes cost a seek and half a turn each (1 ms + 4.17 ms
 * at 7200 rpm), so about 193 IOPS whatever is in front of the disk.
 */
class SharedDiskTest {
  @TempDir Path dir;

  @Test
  void aPoolOrMoreQueuesShareOneDisksRate() throws IOException {
    ExperimentResult r =
        ExperimentText.run(
            dir,
            "disk",
            """
        name = disk
        seed = 1
        machine { numa-nodes = 1, cores-per-node = 2 }
        queues { kind = virtio, count = 1, ring-size = 128 }
        router { selector = round-robin, admission = global, max-background = 65535 }
        device = "hdd(1ms, 7200, 180MB/s, 1ms)"
        workload = \"\"\"
        [global]
        ioengine=libaio
        direct=1
        rw=randwrite
        bs=4k
        size=1g
        runtime=300ms
        time_based
        [j]
        iodepth=16
        \"\"\"
        variants = [
          { name = serial, queues { dispatch = fifo } }
          { name = pool8, queues { dispatch = "pool(8)" } }
          { name = two-queues, queues { count = 2 } }
        ]
        """);
    double perRequest = 1e9 / (1_000_000 + 30_000_000_000.0 / 7200 + 4096 * 1e9 / 180e6);
    for (VariantResult v : r.variants()) {
      assertThat(v.summary().iops())
          .as(v.variant().id())
          .isCloseTo(perRequest, within(perRequest * 0.05));
    }
  }
}
