package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.cpu.CState;
import io.mqroute.actors.cpu.Governor;
import io.mqroute.actors.cpu.SleepWakeCost;
import io.mqroute.config.ConfigError;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.SimSystem;
import io.mqroute.runtime.TimedDelivery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.DispatcherSelector;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Test;

/**
 * {@code sleep-wake-cost}: a server thread pays it once per wake-up on a core that slept, in
 * virtual time on one Core (HLT: exit 2 us, residency 1 us; server work 3 us; the cost 10 us).
 */
class SleepWakeCostTest {
  private static final long US = 1_000;
  private static final long EXIT = 2 * US;
  private static final long WORK = 3 * US;
  private static final long COST = 10 * US;

  /** An item for the core: sent at {@code atNanos}, of {@code kind}. */
  private record Item(String name, long atNanos, Work kind) {}

  /** Runs the items on one core; returns each item's end as "name@ns". */
  private static List<String> ends(long sleepWakeNanos, List<Item> items) {
    List<String> ended = new ArrayList<>();
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    Behavior<Void> root =
        Behaviors.setup(
            ctx -> {
              NanoClock clock = NanoClock.of(ctx.getSystem());
              DispatcherSelector same = DispatcherSelector.sameAsParent();
              ActorRef<CoreProtocol.Command> core =
                  ctx.spawn(
                      Core.create(
                          0,
                          List.of(new CState("HLT", EXIT, US)),
                          Governor.PERFORMANCE,
                          0,
                          sleepWakeNanos,
                          null,
                          false),
                      "core",
                      same);
              ActorRef<String> sink =
                  ctx.spawn(
                      Behaviors.receive(String.class)
                          .onMessage(
                              String.class,
                              n -> {
                                ended.add(n + "@" + clock.nanoTime());
                                if (ended.size() == items.size()) {
                                  done.complete(true);
                                }
                                return Behaviors.same();
                              })
                          .build(),
                      "sink",
                      same);
              TimedDelivery.Clock at = TimedDelivery.of(ctx.getSystem());
              for (Item i : items) {
                at.at(i.atNanos(), core, new CoreProtocol.Exec<>(WORK, i.kind(), sink, i.name()));
              }
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "sleep-wake-cost", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      sim.runUntil(10_000_000, done::isDone);
    }
    assertThat(done).as("every item ended").isCompleted();
    return ended;
  }

  @Test
  void aServerThreadWokenForEveryRequestPaysThePricePerRequest() {
    // one request every 100 us: the core sleeps between them, the thread is woken for each
    List<Item> items = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int k = 1; k <= 4; k++) {
      items.add(new Item("r" + k, k * 100 * US, Work.SERVER));
      expected.add("r" + k + "@" + (k * 100 * US + EXIT + COST + WORK));
    }
    assertThat(ends(COST, items)).containsExactlyElementsOf(expected);
  }

  @Test
  void aServerThreadServingKRequestsPerWakeUpPaysItOnce() {
    List<Item> items = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    for (int k = 1; k <= 4; k++) {
      items.add(new Item("r" + k, 100 * US, Work.SERVER)); // four at once, back to back
      expected.add("r" + k + "@" + (100 * US + EXIT + COST + k * WORK));
    }
    assertThat(ends(COST, items)).containsExactlyElementsOf(expected);
  }

  @Test
  void theWorkingSetIsLostByTheCoresSleepNotByWhoWokeIt() {
    // the application, woken on the idle core, submits; the ring thread that runs after it still
    // finds its caches cold (the unpinned reader of issue 21)
    assertThat(ends(COST, List.of(new Item("app", 100 * US, Work.WAKE), item("ring", 100 * US))))
        .containsExactly(
            "app@" + (100 * US + EXIT + WORK), "ring@" + (100 * US + EXIT + 2 * WORK + COST));
  }

  @Test
  void aServerThreadWokenOnACoreThatNeverSleptPaysNothing() {
    // the pinned reader: it runs from t = 0 and wakes its ring thread on its own busy core
    assertThat(ends(COST, List.of(new Item("app", 0, Work.SUBMIT), item("ring", 0))))
        .containsExactly("app@" + WORK, "ring@" + 2 * WORK);
  }

  @Test
  void withoutTheCostNothingChanges() {
    assertThat(ends(0, List.of(item("r1", 100 * US), item("r2", 200 * US))))
        .containsExactly("r1@" + (100 * US + EXIT + WORK), "r2@" + (200 * US + EXIT + WORK));
  }

  @Test
  void aNegativeCostIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> new SleepWakeCost(-1)).hasMessageContaining("sleep-wake-cost");
    assertThatThrownBy(
            () ->
                TestMachines.parse(
                    "machine { numa-nodes = 1, cores-per-node = 2, cpu { sleep-wake-cost = lots } }\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("sleep-wake-cost");
  }

  @Test
  void theMachineFileSetsIt() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2, cpu { sleep-wake-cost = 12us } }\n");
    assertThat(spec.costs().sleepWakeNanos()).isEqualTo(12 * US);
    assertThat(TestMachines.parse("machine { numa-nodes = 1, cores-per-node = 2 }\n").costs())
        .extracting(c -> c.sleepWakeNanos())
        .isEqualTo(0L);
  }

  private static Item item(String name, long at) {
    return new Item(name, at, Work.SERVER);
  }
}
