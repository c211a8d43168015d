package io.mqroute.actors.machine;

import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link SlowPollerTest}'s machine on the real clock ({@code MachineRun.runRealTime}, {@code
 * ClockMode.REAL_PRECISE}): the same ring stage, so the same bound on the ring and on every
 * mailbox. The device's 1 ms is a real timer, so the pace is at most the virtual one (a late timer
 * on a busy machine only slows it).
 */
@Tag("integration")
class SlowPollerRealTimeTest {
  @ParameterizedTest
  @ValueSource(doubles = {SlowPollerTest.RATE_IOPS, 0})
  void theRingBoundsWhatReachesASlowPollerAndNoMailboxGrows(double rate) {
    MachineRun.RealTimeOutcome o =
        MachineRun.runRealTimeMeasuringMailboxes(
            "slow-poller-rt",
            // a second without a completion is a stall in virtual time, not on a loaded machine
            SlowPollerTest.machine("20s"),
            List.of(SlowPollerTest.producer(rate, 300_000_000L)),
            i -> new JobStats(JobInfo.named("producer")),
            1,
            Duration.ofSeconds(60));
    // a busy machine fires the device's timers late and may end the run before many complete: only
    // an upper bound on the pace is the clock's
    SlowPollerTest.check(o.result(), o.mailboxes(), 0, 301);
  }
}
