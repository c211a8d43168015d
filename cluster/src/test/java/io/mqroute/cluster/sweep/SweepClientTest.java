package io.mqroute.cluster.sweep;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.protocol.SweepMessage;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The sweep's client and workers in one ActorSystem (the cluster's part, a worker lost to the
 * failure detector, is ClusterSweepTest's with real processes): results in order and whole across
 * parts, never more runs at a worker than its slots, a failing run reported after one more try
 * elsewhere, a sweep with no worker ended.
 */
class SweepClientTest {
  private final ActorTestKit kit = ActorTestKit.create();
  private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
  private int spawned;

  @AfterEach
  void stop() {
    kit.shutdownTestKit();
  }

  /** Run i's result: 100 KiB (three parts) of i. */
  private static byte[] result(String order) {
    byte[] b = new byte[100 << 10];
    Arrays.fill(b, (byte) order.hashCode());
    b[0] = (byte) order.length();
    return b;
  }

  /**
   * A worker whose runs wait for each other (until the worker's slots are all running, at most 500
   * ms), count their calls and fail on "bad".
   */
  private void worker(String name, int slots, AtomicInteger most) {
    AtomicInteger now = new AtomicInteger();
    Object full = new Object();
    SweepWork work =
        order -> {
          String o = new String(order, StandardCharsets.UTF_8);
          calls.computeIfAbsent(name + ":" + o, k -> new AtomicInteger()).incrementAndGet();
          int n = now.incrementAndGet();
          most.accumulateAndGet(n, Math::max);
          try {
            // runs overlap as far as the client lets them: the check on `most` means something
            long until = System.nanoTime() + 500_000_000L;
            synchronized (full) {
              full.notifyAll();
              for (long left; now.get() < slots && (left = until - System.nanoTime()) > 0; ) {
                full.wait(Math.max(1, left / 1_000_000));
              }
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } finally {
            now.decrementAndGet();
          }
          if (o.equals("bad")) {
            throw new SweepWork.Failed("an invariant broke");
          }
          return result(o);
        };
    kit.spawn(SweepWorker.create(slots, work, s -> {}), name);
    spawned++;
  }

  private static List<byte[]> orders(String... names) {
    List<byte[]> out = new ArrayList<>();
    for (String n : names) {
      out.add(n.getBytes(StandardCharsets.UTF_8));
    }
    return out;
  }

  private RemoteSweep.Outcome sweep(List<byte[]> orders) throws Exception {
    // every worker listed before the sweep starts: the client's first listing has them all
    int workers = spawned;
    kit.createTestProbe()
        .awaitAssert(
            Duration.ofSeconds(30),
            Duration.ofMillis(10),
            () -> {
              TestProbe<Receptionist.Listing> p = kit.createTestProbe();
              kit.system().receptionist().tell(Receptionist.find(SweepWorker.WORKERS, p.getRef()));
              assertThat(p.receiveMessage().getServiceInstances(SweepWorker.WORKERS))
                  .hasSize(workers);
              return null;
            });
    return RemoteSweep.start(kit.system(), orders, Duration.ofSeconds(30))
        .outcome()
        .get(60, TimeUnit.SECONDS);
  }

  @Test
  void resultsComeBackWholeAndInOrderWithNoMoreRunsAtAWorkerThanItsSlots() throws Exception {
    AtomicInteger mostA = new AtomicInteger();
    AtomicInteger mostB = new AtomicInteger();
    worker("a", 2, mostA);
    worker("b", 1, mostB);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      names.add("run-" + i);
    }
    RemoteSweep.Outcome o = sweep(orders(names.toArray(String[]::new)));
    assertThat(o.failures()).isEmpty();
    for (int i = 0; i < names.size(); i++) {
      assertThat(o.results().get(i)).as(names.get(i)).isEqualTo(result(names.get(i)));
    }
    assertThat(result("x").length).isGreaterThan(2 * SweepMessage.MAX_CHUNK);
    assertThat(mostA.get()).isBetween(1, 2);
    assertThat(mostB.get()).isEqualTo(1);
    assertThat(calls.keySet()).anyMatch(k -> k.startsWith("a:")).anyMatch(k -> k.startsWith("b:"));
    assertThat(calls.values()).allMatch(c -> c.get() == 1);
  }

  @Test
  void aRunThatFailsIsTriedOnceMoreElsewhereThenReported() throws Exception {
    worker("a", 1, new AtomicInteger());
    worker("b", 1, new AtomicInteger());
    RemoteSweep.Outcome o = sweep(orders("one", "bad", "two", "three"));
    assertThat(o.failures()).containsExactly(Map.entry(1, "an invariant broke"));
    assertThat(o.results().get(1)).isNull();
    assertThat(o.results().get(3)).isEqualTo(result("three"));
    // once on each worker, never more
    assertThat(calls.get("a:bad").get()).isEqualTo(1);
    assertThat(calls.get("b:bad").get()).isEqualTo(1);
  }

  @Test
  void withOneWorkerAFailingRunIsTriedTwiceThere() throws Exception {
    worker("a", 2, new AtomicInteger());
    RemoteSweep.Outcome o = sweep(orders("bad", "one"));
    assertThat(o.failures()).containsOnlyKeys(0);
    assertThat(calls.get("a:bad").get()).isEqualTo(2);
    assertThat(o.results().get(1)).isEqualTo(result("one"));
  }

  @Test
  void aSweepWithNoWorkerEndsWithNoWorkers() {
    var running = RemoteSweep.start(kit.system(), orders("one"), Duration.ofMillis(300));
    assertThatThrownBy(() -> running.outcome().get(30, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(RemoteSweep.NoWorkers.class);
    assertThat(running.progress().now().workers()).isEmpty();
  }
}
