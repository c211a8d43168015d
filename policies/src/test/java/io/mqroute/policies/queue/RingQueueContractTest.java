package io.mqroute.policies.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.strategy.EnqueueErrorPolicy;
import io.mqroute.policies.strategy.FullRingStrategy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same calls through {@link RingQueue} under both full-ring strategies: what differs is only
 * what moves a parked request (a completion's refill, or the retry timer), never the ring bound,
 * the tail re-queue of virtio_fs_request_dispatch_work, the ENOMEM handling or the exactly-once end
 * of every request.
 */
class RingQueueContractTest {

  static Stream<FullRingStrategy> strategies() {
    return Stream.of(
        FullRingStrategy.refillOnCompletion(), FullRingStrategy.delayedRetry(1_000_000));
  }

  /** Records what the queue asks its shell to do, and checks it is never re-entered. */
  static final class Recorder implements RingQueue.Port<String> {
    final List<String> onRing = new ArrayList<>();
    final List<String> failed = new ArrayList<>();
    final List<Long> timers = new ArrayList<>();

    /** A retry timer is armed and has not run yet. */
    boolean armed;

    @Override
    public void toRing(String item) {
      onRing.add(item);
    }

    @Override
    public void failNoMemory(String item) {
      failed.add(item);
    }

    @Override
    public void armRetry(long delayNanos) {
      assertThat(armed).as("at most one retry timer at once").isFalse();
      armed = true;
      timers.add(delayNanos);
    }
  }

  /**
   * nextDouble() answers from a script: 0 means "ENOMEM now" for any rate > 0, 0.99 means "fits".
   */
  static final class ScriptedDoubles implements RandomSource {
    private final double[] script;
    private int next;

    ScriptedDoubles(double... script) {
      this.script = script;
    }

    @Override
    public double nextDouble() {
      if (next >= script.length) {
        throw new AssertionError("unscripted draw #" + (next + 1));
      }
      return script[next++];
    }

    @Override
    public int nextInt(int bound) {
      throw new AssertionError("nextInt");
    }

    @Override
    public long nextLong() {
      throw new AssertionError("nextLong");
    }

    @Override
    public RandomSource split(String name) {
      throw new AssertionError("split");
    }

    int drawn() {
      return next;
    }
  }

  /** A ring with no server: the recorder sees what it takes. */
  private static Ring<String> ring(int size) {
    return Ring.counting(size, item -> {});
  }

  private static List<String> queued(RingQueue<String> q) {
    List<String> out = new ArrayList<>();
    q.forEachQueued(out::add);
    return out;
  }

  /**
   * What moves parked requests after completions: the refill, or (delayed-retry) the timer the
   * queue armed, which must be armed whenever a request waits (else nothing would ever move it).
   */
  private static void afterCompletions(RingQueue<String> q, Recorder port, long now) {
    q.refill(now);
    if (!q.fullRing().refillsOnCompletion() && q.queued() > 0) {
      assertThat(port.armed).as("a parked request has a retry timer").isTrue();
      port.armed = false; // the timer fires
      q.retry(now);
    }
  }

  private static void assertInvariants(RingQueue<String> q) {
    List<String> v = new ArrayList<>();
    q.checkInvariants(v);
    assertThat(v).isEmpty();
    assertThat(q.onRing())
        .isBetween(0, q.ringSize()); // a storm may lower the limit under what is on the ring
    assertThat(q.inFlight()).isEqualTo(q.onRing() + q.queued());
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aFullRingParksAndTheFirstThatDoesNotFitGoesBackToTheTail(FullRingStrategy s) {
    Recorder port = new Recorder();
    RingQueue<String> q = RingQueue.newBuilder(port, ring(2)).fullRing(s).build();
    for (String r : List.of("a", "b", "c", "d", "e")) {
      q.enqueue(r, 10);
      assertInvariants(q);
    }
    assertThat(port.onRing).containsExactly("a", "b");
    assertThat(queued(q)).containsExactly("c", "d", "e");
    assertThat(q.overflowWaits()).isEqualTo(3);
    assertThat(port.timers)
        .hasSize(s.refillsOnCompletion() ? 0 : 1); // one timer, however many park

    q.complete(); // "a" is done: one free slot
    q.refill(50);
    if (!s.refillsOnCompletion()) {
      assertThat(port.onRing)
          .as("delayed-retry: a completion does not refill")
          .containsExactly("a", "b");
      port.armed = false; // the timer fires
      q.retry(50);
      assertThat(port.timers).as("re-armed: d and e still wait").hasSize(2);
    }
    assertInvariants(q);
    // c fits; d does not and goes back behind e (virtio_fs_request_dispatch_work)
    assertThat(port.onRing).containsExactly("a", "b", "c");
    assertThat(queued(q)).containsExactly("e", "d");
    assertThat(q.overflowNanos()).isEqualTo(40);
    assertThat(q.maxOccupancy()).isEqualTo(2);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aUringQueueKeepsTheFirstWaiterAtTheHead(FullRingStrategy s) {
    Recorder port = new Recorder();
    RingQueue<String> q =
        RingQueue.newBuilder(port, ring(2)).fullRing(s).misfitStaysAtHead().build();
    for (String r : List.of("a", "b", "c", "d", "e")) {
      q.enqueue(r, 10);
    }
    q.complete();
    afterCompletions(q, port, 50);
    assertInvariants(q);
    // c takes the free entry; d does not fit and stays first (fuse_uring_next_fuse_req takes the
    // head)
    assertThat(port.onRing).containsExactly("a", "b", "c");
    assertThat(queued(q)).containsExactly("d", "e");
    q.complete();
    q.complete();
    afterCompletions(q, port, 60);
    assertThat(port.onRing).containsExactly("a", "b", "c", "d", "e");
    assertInvariants(q);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void newSubmissionsTakeAFreeSlotBeforeTheParkedOnesOnlyUntilTheQueueMovesThem(
      FullRingStrategy s) {
    Recorder port = new Recorder();
    RingQueue<String> q = RingQueue.newBuilder(port, ring(1)).fullRing(s).build();
    q.enqueue("a", 0);
    q.enqueue("b", 0);
    q.complete();
    q.refill(1);
    q.enqueue("c", 2);
    // refill-on-completion moved b at once; delayed-retry left the slot to the newcomer (seed 001's
    // starvation)
    assertThat(port.onRing).containsExactly("a", s.refillsOnCompletion() ? "b" : "c");
    assertInvariants(q);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void enomemFailEndsTheRequestAndTheDispatchWorkGoesOn(FullRingStrategy s) {
    Recorder port = new Recorder();
    ScriptedDoubles draws = new ScriptedDoubles(0.99, 0.0, 0.99, 0.99, 0.0, 0.99, 0.99);
    RingQueue<String> q =
        RingQueue.newBuilder(port, ring(1))
            .fullRing(s)
            .enqueueError(EnqueueErrorPolicy.FAIL)
            .enomem(0.5, draws)
            .build();
    q.enqueue("a", 0); // fits
    q.enqueue("b", 0); // ENOMEM: ends at once, never parked
    q.enqueue("c", 0); // ring full: parks
    q.enqueue("d", 0); // parks
    assertThat(port.failed).containsExactly("b");
    assertThat(queued(q)).containsExactly("c", "d");
    q.complete();
    afterCompletions(q, port, 5); // c: ENOMEM, ends; d fits; nothing left to move
    assertThat(port.failed).containsExactly("b", "c");
    assertThat(port.onRing).containsExactly("a", "d");
    assertThat(q.enomem()).isEqualTo(2);
    assertThat(q.completed()).isEqualTo(3); // a and the two failures
    assertInvariants(q);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void enomemRequeueParksTheRequestAndStopsTheDispatchWork(FullRingStrategy s) {
    Recorder port = new Recorder();
    ScriptedDoubles draws = new ScriptedDoubles(0.99, 0.99, 0.99, 0.99, 0.0, 0.99, 0.99);
    RingQueue<String> q =
        RingQueue.newBuilder(port, ring(2))
            .fullRing(s)
            .enqueueError(EnqueueErrorPolicy.REQUEUE)
            .enomem(0.5, draws)
            .build();
    q.enqueue("a", 0);
    q.enqueue("b", 0);
    q.enqueue("c", 0); // ENOSPC
    q.enqueue("d", 0); // ENOSPC
    q.complete();
    q.complete();
    afterCompletions(q, port, 1); // c: ENOMEM → back to the tail, and the work stops there
    assertThat(port.failed).isEmpty();
    assertThat(port.onRing).containsExactly("a", "b");
    assertThat(queued(q)).containsExactly("d", "c");
    afterCompletions(q, port, 2); // both fit now, in the reordered order
    assertThat(port.onRing).containsExactly("a", "b", "d", "c");
    assertThat(draws.drawn()).isEqualTo(7);
    assertInvariants(q);
  }

  @Test
  void requeueOnAnEmptyRingWaitsForEverUnderRefillOnCompletionButNotUnderDelayedRetry() {
    for (FullRingStrategy s : strategies().toList()) {
      Recorder port = new Recorder();
      RingQueue<String> q =
          RingQueue.newBuilder(port, ring(4))
              .fullRing(s)
              .enqueueError(EnqueueErrorPolicy.REQUEUE)
              .enomem(1, SeededRandom.root(1))
              .build();
      q.enqueue("a", 0);
      q.setEnomemProbability(0);
      assertThat(q.onRing()).as("nothing on the ring: no completion will ever come").isZero();
      if (s.refillsOnCompletion()) {
        assertThat(port.timers).isEmpty();
        assertThat(queued(q)).as("the seed 001 V2 deadlock").containsExactly("a");
      } else {
        assertThat(port.timers).containsExactly(1_000_000L);
        q.retry(1_000_000);
        assertThat(port.onRing).containsExactly("a");
      }
      assertInvariants(q);
    }
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void aRingFullStormLimitsTheSlotsAndOnlyRefillOnCompletionRefillsWhenItEnds(FullRingStrategy s) {
    Recorder port = new Recorder();
    RingQueue<String> q = RingQueue.newBuilder(port, ring(3)).fullRing(s).build();
    q.setRingLimit(1, 0);
    q.enqueue("a", 0);
    q.enqueue("b", 0);
    assertThat(port.onRing).containsExactly("a");
    q.setRingLimit(3, 1);
    assertThat(port.onRing).hasSize(s.refillsOnCompletion() ? 2 : 1);
    assertThatThrownBy(() -> q.setRingLimit(4, 2)).hasMessageContaining("usable ring slots");
    assertInvariants(q);
  }

  /**
   * The ring decides what fits and the queue keeps no count of its own: a ring that refuses (here
   * its limit, lowered behind the queue's back) parks the request, and the queue's occupancy is the
   * ring's.
   */
  @ParameterizedTest
  @MethodSource("strategies")
  void whatFitsIsTheRingsDecision(FullRingStrategy s) {
    Recorder port = new Recorder();
    Ring<String> ring = ring(4);
    RingQueue<String> q = RingQueue.newBuilder(port, ring).fullRing(s).build();
    q.enqueue("a", 0);
    ring.limit(1);
    q.enqueue("b", 0);
    assertThat(port.onRing).containsExactly("a");
    assertThat(queued(q)).containsExactly("b");
    assertThat(q.onRing()).isEqualTo(ring.held()).isEqualTo(1);
    ring.limit(4);
    q.complete();
    afterCompletions(q, port, 1);
    assertThat(port.onRing).containsExactly("a", "b");
    assertThat(q.onRing()).isEqualTo(ring.held()).isEqualTo(1);
    assertInvariants(q);
  }

  @ParameterizedTest
  @MethodSource("strategies")
  void evacuateHandsTheParkedRequestsBackInOrder(FullRingStrategy s) {
    Recorder port = new Recorder();
    RingQueue<String> q = RingQueue.newBuilder(port, ring(1)).fullRing(s).build();
    for (String r : List.of("a", "b", "c")) {
      q.enqueue(r, 0);
    }
    List<String> rerouted = new ArrayList<>();
    q.evacuate(7, rerouted::add);
    assertThat(rerouted).containsExactly("b", "c");
    assertThat(q.rerouted()).isEqualTo(2);
    assertThat(q.overflowNanos()).isEqualTo(14);
    assertInvariants(q);
  }

  /**
   * Random enqueue / complete / fault sequences: the ring bound and in_flight == on_ring + queued
   * hold after every call, and once everything has drained every request ended exactly once (ring
   * then completion, or ENOMEM).
   */
  @ParameterizedTest
  @MethodSource("strategies")
  void everyRequestEndsExactlyOnceWhateverTheSequence(FullRingStrategy s) {
    for (long seed = 1; seed <= 20; seed++) {
      SeededRandom steps = SeededRandom.stream(seed, "steps");
      Recorder port = new Recorder();
      RingQueue<String> q =
          RingQueue.newBuilder(port, ring(1 + steps.nextInt(4)))
              .fullRing(s)
              .enqueueError(EnqueueErrorPolicy.FAIL)
              .enomem(0, SeededRandom.stream(seed, "enomem"))
              .build();
      List<String> serving = new ArrayList<>(); // on the ring, in start order
      Map<String, Integer> ends = new HashMap<>();
      int next = 0;
      long now = 0;
      for (int step = 0; step < 400; step++) {
        now += 1 + steps.nextInt(10);
        int before = port.onRing.size();
        switch (steps.nextInt(6)) {
          case 0, 1, 2 -> q.enqueue("r" + next++, now);
          case 3 -> {
            if (!serving.isEmpty()) {
              ends.merge(serving.remove(steps.nextInt(serving.size())), 1, Integer::sum);
              q.complete();
              afterCompletions(q, port, now);
            }
          }
          case 4 -> q.setEnomemProbability(steps.nextInt(2) == 0 ? 0 : 0.3);
          default -> q.setRingLimit(1 + steps.nextInt(q.ringSize()), now);
        }
        serving.addAll(port.onRing.subList(before, port.onRing.size()));
        assertThat(q.onRing()).isEqualTo(serving.size()).isLessThanOrEqualTo(q.ringSize());
        assertInvariants(q);
      }
      q.setEnomemProbability(0);
      int restored = port.onRing.size();
      q.setRingLimit(q.ringSize(), now); // refill-on-completion: the storm's end refills
      serving.addAll(port.onRing.subList(restored, port.onRing.size()));
      while (!serving.isEmpty() || q.queued() > 0) {
        now++;
        int before = port.onRing.size();
        if (!serving.isEmpty()) {
          ends.merge(serving.remove(0), 1, Integer::sum);
          q.complete();
        }
        afterCompletions(q, port, now);
        serving.addAll(port.onRing.subList(before, port.onRing.size()));
        assertInvariants(q);
      }
      port.failed.forEach(r -> ends.merge(r, 1, Integer::sum));
      assertThat(ends)
          .as("seed %d", seed)
          .hasSize(next)
          .allSatisfy((r, n) -> assertThat(n).isEqualTo(1));
      assertThat(q.completed()).isEqualTo(next);
      assertThat(q.inFlight()).isZero();
    }
  }

  @Test
  void theBuilderRefusesWhatCannotWork() {
    Recorder port = new Recorder();
    assertThatThrownBy(() -> ring(0)).hasMessageContaining("ring-size");
    assertThatThrownBy(
            () -> RingQueue.newBuilder(port, ring(128)).enomem(1.5, SeededRandom.root(1)))
        .hasMessageContaining("enomem-probability must be in [0, 1]");
    assertThatThrownBy(() -> RingQueue.newBuilder(port, ring(128)).enomem(0.5, null).build())
        .hasMessageContaining("random source");
    Ring<String> used = ring(2);
    used.offer("x");
    assertThatThrownBy(() -> RingQueue.newBuilder(port, used).build())
        .hasMessageContaining("already holds 1");
    RingQueue<String> noFaults = RingQueue.newBuilder(port, ring(128)).build();
    assertThatThrownBy(() -> noFaults.setEnomemProbability(0.1))
        .hasMessageContaining("random source");
  }
}
