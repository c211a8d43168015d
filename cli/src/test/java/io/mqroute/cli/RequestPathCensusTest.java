package io.mqroute.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Pins the request path of the {@code mqroute bench} configuration: run-queue tasks, timers and
 * messages per request are deterministic, so any change to the path (a hop added or saved) changes
 * these numbers and must update them here and in docs/architecture.md §3a (printed by {@code
 * mqroute bench --census}).
 */
@Tag("integration") // a whole machine run: ~5 s
class RequestPathCensusTest {
  private static final long REQUESTS = 20_000;

  @Test
  void theBenchPathHasItsPinnedTasksTimersAndMessagesPerRequest() {
    SimBenchmark.Census c = SimBenchmark.census(REQUESTS);
    System.out.print(c.render());
    assertThat(c.requests()).isEqualTo(REQUESTS);
    assertThat(c.tasks()).isEqualTo(TASKS);
    assertThat(c.timers()).isEqualTo(TIMERS);
    assertThat(c.deliveredRuns()).isEqualTo(DELIVERED_RUNS);
    assertThat((c.tasks() + c.timers()) / (double) REQUESTS)
        .as("issue #18: events (run-queue tasks + timers) per request")
        .isLessThanOrEqualTo(12.0);
    assertThat(c.totalMessages()).isEqualTo(MESSAGES);
  }

  @Test
  void theCensusIsTheSameInEveryRun() {
    assertThat(SimBenchmark.census(2_000).messages())
        .isEqualTo(SimBenchmark.census(2_000).messages());
  }

  // issue #18: CPU work on an idle core and a ring thread's device completion delivered from their
  // end instant (TimedDelivery), the ring fused with its queue (before: 435,854 / 117,293 /
  // 437,447; then 321,183 / 117,293 / 322,778); a ring thread's server work and device time as one
  // CPU item whose result reaches the queue at the device's end (no ServerDone hop). Issue #21: a
  // CPU whose work ends at the wake-up's instant is not idle then (WakeTargets.idle), so a few more
  // waiters are reaped where they run instead of woken elsewhere; same hops (was 301,183 / 99,528 /
  // 302,778). Issue #18 again: the harvest and the first request's end as one item on the
  // harvesting
  // core (the harvest delivered when its work starts, the end's result at its end), no hop back
  // through the queue in between (was 301,674 / 99,555 / 303,297); a ring thread's CPU starts that
  // item itself at the device's end, no Served hop to the queue (was 281,672 / 98,198 / 283,297).
  // The virtual-time dispatcher (issue #18, cheaper events): a mailbox run queued from another
  // thread (at the root's start) does not mark the mailbox scheduled for the driver, so the root
  // gets one more, empty, run (was 261,670; the same hops, every digest unchanged). Plan-ahead: a
  // core starts work that arrives behind other work on arrival, its result a timed delivery from
  // its end, no Tick (was 261,671 / 98,198 / 263,297). The queue keeps its held ring thread's
  // backlog and hands it over with the commit that frees the thread (CommitServe), no Serve to a
  // busy thread (was 218,508 / 95,964 / 220,154). A lone timed delivery's mailbox run is part of
  // its timer's event (mqroute.runtime.deliver-lone-runs), not a task: the same 201,709 mailbox
  // runs, 94,340 of them so (was 201,709 tasks).
  private static final long TASKS = 107_369;
  private static final long DELIVERED_RUNS = 94_340;
  private static final long TIMERS = 95_964;
  private static final long MESSAGES = 203_355;
}
