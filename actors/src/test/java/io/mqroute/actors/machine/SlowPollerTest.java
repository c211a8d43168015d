package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A poller 100 times slower than its producer, in virtual time: the ring stage's demand (its free
 * slots) is all that moves requests to the poller, so the ring never holds more than its size and
 * no mailbox on the path grows with the backlog; the backlog waits on the queue's overflow list,
 * bounded by the job's iodepth, as queued_reqs is. {@code SlowPollerRealTimeTest} runs the same
 * machine on the real clock.
 */
class SlowPollerTest {
  static final int RING = 8;
  static final int IODEPTH = 64;

  /** The producer's rate: 100 times the poller's 1,000 requests per second. */
  static final double RATE_IOPS = 100_000;

  /**
   * One CPU with no CPU costs, one virtqueue of {@link #RING} slots with one poller, a 1 ms device
   * (1,000 requests/s), and admission wide enough that every request reaches the queue; {@code
   * stallLimit} as the machine's {@code stall-limit}.
   */
  static MachineSpec machine(String stallLimit) {
    return TestMachines.parse(
        "machine { numa-nodes = 1, cores-per-node = 1, cpu { submit-cost = 0, server-cost = 0,"
            + " completion-cost = 0, wake-cost = 0, reap-cost = 0, switch-cost = 0,"
            + " migrate-cost = 0, c-states = none } }\n"
            + "queues { kind = virtio, count = 1, ring-size = "
            + RING
            + ", pollers = 1 }\n"
            + "router { selector = single, max-background = 1024, congestion-threshold = 768 }\n"
            + "device = \"fixed(1ms)\"\n"
            + "stall-limit = "
            + stallLimit
            + "\n");
  }

  /**
   * An async job of {@link #IODEPTH} in flight for {@code runtimeNanos}: at {@link #RATE_IOPS}, or
   * with {@code rate} 0 a closed loop that submits its whole iodepth at once.
   */
  static JobPlan producer(double rate, long runtimeNanos) {
    return JobPlan.of(
        0,
        "producer",
        0,
        new int[] {0},
        0,
        IODEPTH,
        false,
        1.0,
        true,
        4096,
        4096,
        1L << 30,
        1,
        0,
        runtimeNanos,
        0,
        true,
        rate,
        false);
  }

  @ParameterizedTest
  @ValueSource(doubles = {RATE_IOPS, 0})
  void theRingBoundsWhatReachesASlowPollerAndNoMailboxGrows(double rate) {
    MachineRun.Outcome o =
        MachineRun.runMeasuringMailboxes(
            "slow-poller",
            machine("1s"),
            List.of(producer(rate, 200_000_000L)),
            i -> new JobStats(JobInfo.named("producer")),
            1);
    check(o.result(), o.mailboxes(), 199, 201);
  }

  /**
   * The ring held at most its size (and filled), the backlog waited on the overflow list, the
   * poller set the pace, and every mailbox stayed within what one burst of the producer (its
   * iodepth) or of the ring can put there.
   */
  static void check(MachineResult r, Map<String, Integer> mailboxes, long minIos, long maxIos) {
    SoftAssertions soft = new SoftAssertions();
    soft.assertThat(r.violations()).as("violations").isEmpty();
    soft.assertThat(r.stall()).as("stall").isNull();
    // a queue whose actor failed (the avail ring refuses to grow past the ring) reports nothing
    assertThat(r.queues()).as("queue reports").hasSize(1);
    FlowProtocol.QueueStats q = r.queues().get(0);
    soft.assertThat(q.maxOccupancy()).as("ring occupancy").isEqualTo(RING);
    soft.assertThat(q.overflowWaits()).as("requests parked on a full ring").isPositive();
    long ios = r.jobs().get(0).direction(Direction.READ).totalIos();
    soft.assertThat(ios).as("the poller's pace").isBetween(minIos, maxIos);
    soft.assertThat(mailboxes.keySet())
        .as("measured")
        .anyMatch(p -> p.endsWith("/queue-0/poller"))
        .anyMatch(p -> p.endsWith("/queue-0"))
        // the ring is fused with its queue (RingStage.fused, issue #18): no stream actor between
        .noneMatch(p -> p.contains("/queue-0/StreamSupervisor"));
    mailboxes.forEach(
        (path, most) -> {
          int bound = onTheRingSide(path) ? RING + 2 : IODEPTH + 2;
          soft.assertThat(most).as("mailbox of " + path).isLessThanOrEqualTo(bound);
        });
    soft.assertAll();
  }

  /** The poller (and a ring stream's actor, were there one): behind the ring, bounded by it. */
  static boolean onTheRingSide(String path) {
    return path.endsWith("/poller") || path.contains("StreamSupervisor");
  }
}
