package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.Queueing;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-queue queueing and per-job Little's law over every replication, in result.json and text. */
class PooledTest {
  @TempDir Path dir;

  private static MachineResult run(Queueing q, LittlesLaw l) {
    FlowProtocol.QueueStats s =
        new FlowProtocol.QueueStats(
            0,
            0,
            q.started(),
            q.started(),
            1,
            0,
            0,
            0,
            0,
            0,
            0,
            0,
            List.of(),
            List.of(),
            0,
            0,
            0,
            q);
    return new MachineResult(
        List.of(), List.of(l), null, List.of(s), List.of(), List.of(), null, q.spanNanos(), null);
  }

  @Test
  void replicationsPoolToRatiosOfSumsAndTheLawMustHoldInEach() {
    // replication 1: 100 started, 80 waited, one server busy 600 of 1000 ns; replication 2: 300
    // started, 150 waited, busy 900 of 1000 ns
    MachineResult a =
        run(
            new Queueing(1, 1_000, 100, 80, 8_000, 600, 1_200, 1_800),
            new LittlesLaw(100, 1_000, 4_000, 2, 3_900, 100));
    MachineResult b =
        run(
            new Queueing(1, 1_000, 300, 150, 9_000, 900, 800, 1_700),
            new LittlesLaw(100, 1_000, 4_000, 2, 3_000, 100));
    Pooled.QueueAcross q = Pooled.queues(List.of(a, b)).get(0);
    assertThat(q.replications()).isEqualTo(2);
    assertThat(q.pooled().pWait()).isEqualTo(230 / 400.0);
    assertThat(q.pooled().busyFraction()).isEqualTo(0.75);
    assertThat(q.pooled().meanWaiting()).isEqualTo(1.0);
    assertThat(q.pooled().meanInQueue()).isEqualTo(1.75);
    assertThat(q.pWait().mean()).isCloseTo((0.8 + 0.5) / 2, within(1e-12));
    assertThat(q.pWait().ci95()).isPositive();

    Pooled.LittleAcross l = Pooled.little(List.of(a, b)).get(0);
    assertThat(l.evaluated()).isEqualTo(2);
    assertThat(l.holds()).as("replication 2 is broken").isFalse();
    assertThat(Pooled.little(List.of(a, a)).get(0).holds()).isTrue();
    assertThat(Pooled.little(List.of(run(Queueing.NONE, LittlesLaw.notEvaluated()))).get(0).holds())
        .isFalse();
  }

  @Test
  void resultJsonAndTheReportShowThemOverEveryReplication() throws IOException {
    ExperimentResult r =
        ExperimentText.run(
            dir,
            "pooled",
            """
            name = pooled
            seed = 3
            replications = 3
            machine { numa-nodes = 1, cores-per-node = 2, cpu { submit-cost = 0, server-cost = 0,
              completion-cost = 0, wake-cost = 0, reap-cost = 0, switch-cost = 0, migrate-cost = 0,
              c-states = none } }
            queues { kind = independent, count = 1, ring-size = 1024 }
            router { selector = single }
            device = "fixed(10us)"
            workload = \"\"\"
            [job]
            ioengine=io_uring
            rw=randread
            bs=4k
            size=1g
            iodepth=1024
            rate_iops=50000
            rate_process=poisson
            runtime=40ms
            ramp_time=2ms
            time_based
            \"\"\"
            """);
    JsonNode m = ResultJson.build(r, "test", Instant.EPOCH).path("variants").get(0).path("mqroute");
    JsonNode q = m.path("queueing").get(0);
    assertThat(q.path("replications").asInt()).isEqualTo(3);
    assertThat(q.path("servers").asInt()).isEqualTo(1);
    // M/D/1 at ρ = 0.5: P(wait) = ρ, Lq = ρ² / (2(1 − ρ)) = 0.25
    assertThat(q.path("p_wait").asDouble()).isCloseTo(0.5, within(0.03));
    assertThat(q.path("busy_fraction").asDouble()).isCloseTo(0.5, within(0.03));
    assertThat(q.path("mean_waiting").asDouble()).isCloseTo(0.25, within(0.04));
    assertThat(q.path("ci95").path("p_wait").asDouble()).isPositive();
    long started = 0;
    for (MachineResult rep : r.variants().get(0).all()) {
      started += rep.queues().get(0).queueing().started();
    }
    assertThat(q.path("requests").asLong()).as("the sum over replications").isEqualTo(started);

    JsonNode l = m.path("little").get(0);
    assertThat(l.path("holds").asBoolean()).isTrue();
    assertThat(l.path("replications").asInt()).isEqualTo(3);
    assertThat(l.path("span_ns").asLong()).as("three 40 ms windows").isEqualTo(120_000_000L);
    assertThat(l.path("edge_area").asLong()).as("requests cross the ramp's edge").isNotZero();
    assertThat(l.path("mean_in_flight").asDouble())
        .isCloseTo(
            l.path("lambda_w").asDouble() + l.path("edge_in_flight").asDouble(), within(1e-5));

    String text = MachineReport.render(r.variants().get(0));
    assertThat(text)
        .contains("  queue  servers  P(wait)   busy       Lq        L         Wq   (3 replications")
        .contains("little's law, job 0 (3 replications pooled): L=")
        .contains(": holds in each");
  }
}
