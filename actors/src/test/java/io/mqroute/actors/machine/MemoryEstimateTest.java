package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The heap estimate of a run and the refusal of a machine that cannot fit (the constants are
 * measured by MemoryEstimateCalibrationTest).
 */
class MemoryEstimateTest {
  @Test
  void ringSlotsCostNothingSinceTheRingIsFusedWithItsQueue() {
    // 64 x 1024 CPUs, each with a ring queue of 2^20 slots: 512 GiB of stream buffers before issue
    // #18, now a count per ring
    MachineSpec big =
        TestMachines.parse(
            "machine { numa-nodes = 64, cores-per-node = 1024 }\n"
                + "queues { kind = per-cpu, ring-size = 1048576 }");
    MachineSpec small =
        TestMachines.parse(
            "machine { numa-nodes = 64, cores-per-node = 1024 }\n"
                + "queues { kind = per-cpu, ring-size = 8 }");
    assertThat(MemoryEstimate.of(big).runBytes()).isEqualTo(MemoryEstimate.of(small).runBytes());
    assertThat(MemoryEstimate.of(small).runBytes()).isLessThan(2L << 30);
  }

  @Test
  void jobClonesCountTheirRequestsInFlightAndTheirHistograms() {
    MachineSpec spec = TestMachines.parse("machine { cores-per-node = 4 }");
    List<JobPlan> plans = new ArrayList<>();
    for (int i = 0; i < 4096; i++) { // randrw on an async engine: slat, clat, lat per direction
      plans.add(
          JobPlan.of(
              i,
              "j",
              0,
              new int[] {0},
              0,
              8,
              false,
              0.5,
              true,
              4096,
              4096,
              1L << 30,
              i,
              0,
              1_000_000_000L,
              0,
              true,
              0,
              false));
    }
    MemoryEstimate e = MemoryEstimate.of(spec, plans);
    assertThat(e.largest().key()).isEqualTo("numjobs");
    assertThat(e.largest().what())
        .isEqualTo("24,582 latency histograms (per job clone and direction)");
    assertThat(e.resultBytes()).isGreaterThan(6L << 30); // what the result keeps after the run
    assertThat(e.runBytes()).isGreaterThan(e.resultBytes());
    assertThat(e.parts())
        .anySatisfy(
            p ->
                assertThat(p.what()).isEqualTo("32,768 requests in flight (iodepth x job clones)"));
  }

  @Test
  void ringSlotsAreRoundedUpToAPowerOfTwo() {
    assertThat(MemoryEstimate.ringSlots(1)).isEqualTo(1);
    assertThat(MemoryEstimate.ringSlots(128)).isEqualTo(128);
    assertThat(MemoryEstimate.ringSlots(129)).isEqualTo(256);
    assertThat(MemoryEstimate.ringSlots(1 << 20)).isEqualTo(1 << 20);
    assertThat(MemoryEstimate.bytes(3L << 30)).isEqualTo("3.0 GiB");
    assertThat(MemoryEstimate.bytes(512)).isEqualTo("512 B");
  }
}
