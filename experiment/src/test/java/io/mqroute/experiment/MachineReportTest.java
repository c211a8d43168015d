package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine's counters as the experiment report prints them. */
class MachineReportTest {
  @TempDir Path dir;

  @Test
  void cpuTimePerRequestNamesCStateExitsAndFrequencyStretch() throws IOException {
    // a synchronous reader on per-core rings ping-pongs between CPUs (seed 003): the CPUs idle long
    // enough for C-states, and schedutil runs them below the maximum frequency
    ExperimentResult r =
        ExperimentText.run(
            dir,
            "report",
            """
            name = report
            seed = 5
            machine { numa-nodes = 2, cores-per-node = 4, cpu { governor = schedutil } }
            queues { kind = per-cpu, ring-size = 8 }
            router { selector = static-cpu }
            wake = waiter-cpu
            device = "cpu(2us)"
            workload = \"\"\"
            [job]
            ioengine=psync
            rw=randread
            bs=4k
            size=1g
            runtime=2ms
            time_based
            \"\"\"
            """);
    assertThat(MachineReport.cpuTimePerRequest(r.variants().get(0).result()))
        .startsWith("  cpu time per request: submit ")
        .contains("c-state exits", "below max frequency");
  }
}
