package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.ThreadMXBean;
import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.testing.Views;
import io.mqroute.policies.topology.CpuTopology;
import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The contract every {@link QueueSelector} passes (JCTools style: one test, many factories). */
class SelectorContractTest {

  /** Allowed bytes over the measured loop: the MXBean call itself, nothing per decision. */
  static final long ALLOCATION_SLACK_BYTES = 1024;

  static final int WARMUP_CALLS = 50_000;
  static final int MEASURED_CALLS = 100_000;

  static Stream<Arguments> selectors() {
    return Stream.of(
        named("static-cpu", () -> StaticCpuSelector.newBuilder().build()),
        named("mq-map", () -> MqMapSelector.newBuilder().build()),
        named("reduced-v3", () -> ReducedV3Selector.newBuilder().build()),
        named(
            "reduced-v3 foreground-only",
            () -> ReducedV3Selector.newBuilder().foregroundOnly(true).build()),
        named("reduced-v3 retries=5", () -> ReducedV3Selector.newBuilder().retries(5).build()),
        named("reduced-v2", () -> ReducedV2Selector.newBuilder().build()),
        named(
            "reduced-v2 not as posted",
            () -> ReducedV2Selector.newBuilder().asPosted(false).build()),
        named("random", () -> RandomSelector.newBuilder().build()),
        named("round-robin", () -> RoundRobinSelector.newBuilder().build()),
        named("p2c", () -> PowerOfChoicesSelector.newBuilder().build()),
        named("p2c d=3", () -> PowerOfChoicesSelector.newBuilder().choices(3).build()),
        named("p2c-distinct", () -> DistinctChoicesSelector.newBuilder().build()),
        named("p2c-distinct d=5", () -> DistinctChoicesSelector.newBuilder().choices(5).build()),
        named("shortest", () -> ShortestQueueSelector.newBuilder().build()),
        named("single", () -> SingleQueueSelector.newBuilder().build()),
        named(
            "hotplug-aware(reduced-v3)",
            () -> Selectors.create("hotplug-aware", Map.of("inner", "reduced-v3"))),
        named(
            "hotplug-aware(p2c)", () -> Selectors.create("hotplug-aware", Map.of("inner", "p2c"))));
  }

  static Arguments named(String name, Supplier<QueueSelector> factory) {
    return Arguments.of(name, factory);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("selectors")
  void answersARegisteredQueueOrNone(String name, Supplier<QueueSelector> factory) {
    QueueSelector s = factory.get();
    SplittableRandom r = new SplittableRandom(name.hashCode());
    SeededRandom routing = SeededRandom.stream(1, "routing");
    int none = 0;
    for (int i = 0; i < 1500; i++) {
      MutableRoutingView view = Views.random(r);
      for (int k = 0; k < 4; k++) {
        int q = s.select(view, r.nextInt(view.cpuCount()), r.nextBoolean(), routing);
        if (q == QueueSelector.NONE) {
          none++;
        } else {
          assertThat(view.registered(q))
              .as("%s picked unregistered queue %d in %s", name, q, view)
              .isTrue();
        }
      }
    }
    assertThat(none).as("NONE answers").isLessThan(6000);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("selectors")
  void sameSeedGivesTheSameSequence(String name, Supplier<QueueSelector> factory) {
    assertThat(run(factory.get(), 42)).containsExactly(run(factory.get(), 42));
  }

  private static int[] run(QueueSelector s, long seed) {
    Workload w = new Workload(96, seed);
    SeededRandom routing = SeededRandom.stream(seed, "routing");
    int[] out = new int[5000];
    for (int i = 0; i < out.length; i++) {
      out[i] = w.decide(s, routing, i);
    }
    return out;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("selectors")
  void decisionsDoNotAllocate(String name, Supplier<QueueSelector> factory) {
    ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
    QueueSelector s = factory.get();
    Workload w = new Workload(256, 5);
    SeededRandom routing = SeededRandom.stream(5, "routing");
    long sink = 0;
    for (int i = 0; i < WARMUP_CALLS; i++) {
      sink += w.decide(s, routing, i);
    }
    long before = mx.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < MEASURED_CALLS; i++) {
      sink += w.decide(s, routing, i);
    }
    long allocated = mx.getCurrentThreadAllocatedBytes() - before;
    assertThat(allocated)
        .as(
            "%s allocated %d bytes in %d decisions (sink %d)",
            name, allocated, MEASURED_CALLS, sink)
        .isLessThanOrEqualTo(ALLOCATION_SLACK_BYTES);
  }

  /** A fixed machine whose loads change before every decision, from pre-generated arrays. */
  static final class Workload {
    final MutableRoutingView view;
    final int[] cpu = new int[4096];
    final boolean[] bg = new boolean[4096];
    final int[] queue = new int[4096];
    final int[] depth = new int[4096];

    Workload(int cpus, long seed) {
      view = MutableRoutingView.newBuilder(CpuTopology.uniform(2, cpus / 2)).offline(3, 70).build();
      for (int q = 0; q < cpus; q += 7) {
        view.unregister(q);
      }
      SplittableRandom r = new SplittableRandom(seed);
      for (int i = 0; i < cpu.length; i++) {
        cpu[i] = r.nextInt(cpus);
        bg[i] = r.nextBoolean();
        queue[i] = r.nextInt(cpus);
        depth[i] = r.nextInt(8);
      }
    }

    int decide(QueueSelector s, SeededRandom routing, int i) {
      int k = i & 4095;
      view.setNrReqs(queue[k], depth[k]);
      return s.select(view, cpu[k], bg[k], routing);
    }
  }
}
