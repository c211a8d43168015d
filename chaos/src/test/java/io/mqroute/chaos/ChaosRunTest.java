package io.mqroute.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.LittlesLaw;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.Work;
import io.mqroute.config.ConfigError;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The checker on runs that must pass and runs that must fail. */
@Tag("integration")
class ChaosRunTest {
  /** Two CPUs, a writer on each, no random hotplug or faults: only what a test scripts happens. */
  /**
   * virtqueue_add_sgs's -ENOMEM exists only on virtio queues: one per CPU, as the per-cpu rings
   * are.
   */
  private static final String VIRTIO =
      "queues { kind = virtio, count = 2 }\nrouter.selector = mq-map";

  private static ChaosProfile small(String extraChaos, String machineExtra) {
    String text =
        """
        name = small
        machine { numa-nodes = 1, cores-per-node = 2 }
        queues { kind = per-cpu, ring-size = 4 }
        device = "fixed(100us)"
        stall-limit = 50ms
        %s
        chaos {
          load-factor = 2
          iterations = 2
          hotplug-interval = 0
          ops-per-writer = 200
          iteration-runtime = 1s
          %s
        }
        """
            .formatted(machineExtra, extraChaos);
    return ChaosProfileParser.parse(new ChaosProfileParser.Source("small.conf", text), null, false);
  }

  @Test
  void generic650QuickHasNoViolationsUnderEitherSemantics() {
    for (Semantics s : Semantics.values()) {
      ChaosProfile p = ChaosProfileParser.parse(ChaosProfileParser.load("generic-650"), s, true);
      List<SeedResult> results = ChaosSuite.run(p, 1, 20, 2, r -> {});
      assertThat(results).hasSize(20);
      for (SeedResult r : results) {
        assertThat(r.violations()).as("seed %d %s", r.seed(), s).isEmpty();
        assertThat(r.hotplug()).as("hotplug events, seed %d", r.seed()).isGreaterThan(10);
        assertThat(r.faults()).as("faults, seed %d", r.seed()).isGreaterThan(10);
        assertThat(r.requests()).isGreaterThan(5_000);
      }
    }
  }

  /**
   * Background writers deep enough to keep overflow lists, flips every 3 ms: re-routing under load.
   */
  @Test
  void reroutingUnderHotplugAwareLosesNothing() {
    String text =
        """
        machine { numa-nodes = 2, cores-per-node = 4 }
        queues { kind = per-cpu, ring-size = 2 }
        router { selector = p2c, admission = global, max-background = 64 }
        device = "lognormal(200us, 1.0)"
        chaos {
          semantics = hotplug-aware
          iterations = 3
          hotplug-interval = 3ms
          writer = "rw=randwrite\\nioengine=io_uring\\niodepth=8"
          ops-per-writer = 300
          iteration-runtime = 200ms
          faults { ring-full { every = 7ms, for = 2ms, slots = 1 }, stall { every = 10ms, for = 2ms } }
        }
        """;
    ChaosProfile p =
        ChaosProfileParser.parse(new ChaosProfileParser.Source("reroute.conf", text), null, false);
    long rerouted = 0;
    for (SeedResult r : ChaosSuite.run(p, 1, 6, 2, x -> {})) {
      assertThat(r.violations()).as("seed %d", r.seed()).isEmpty();
      rerouted += r.rerouted();
    }
    assertThat(rerouted).isGreaterThan(100);
  }

  @Test
  void theCheckerSeesAQueueLeftOutOfTheMasksOrACpuThatDoesNotServe() {
    ChaosProfile p = small("events = [\"at 5ms offline cpu 1\", \"at 9ms online cpu 1\"]", "");
    MachineResult r = ChaosRun.machine(p, 1);
    assertThat(ChaosRun.check(p, 1, r).violations()).isEmpty();
    var rs = r.router();
    var broken =
        new FlowProtocol.RouterStats(
            rs.routed(),
            rs.noQueue(),
            rs.blocked(),
            rs.maxNumBackground(),
            rs.maxActive(),
            rs.admissionBreaches(),
            rs.routedPerQueue(),
            rs.holding(),
            List.of(),
            List.of(1));
    var stillOut =
        new MachineResult(
            r.jobs(),
            r.little(),
            broken,
            r.queues(),
            r.cores(),
            r.violations(),
            r.stall(),
            r.endNanos(),
            r.perturbation());
    assertThat(ChaosRun.check(p, 1, stillOut).violations())
        .containsExactly("queue 1 is still out of the masks after the final online");
    var little = new ArrayList<>(r.little());
    little.set(little.size() - 1, new LittlesLaw(3, 0, 0, 0, 0, 0)); // cpu 1's check job
    var shortCheck =
        new MachineResult(
            r.jobs(),
            little,
            rs,
            r.queues(),
            r.cores(),
            r.violations(),
            r.stall(),
            r.endNanos(),
            r.perturbation());
    assertThat(ChaosRun.check(p, 1, shortCheck).violations())
        .containsExactly(
            "cpu 1 does not serve again after the final online: its check job ended 3 of 16 requests, "
                + "0 with an error");
  }

  @Test
  void sameSeedSameRunAndParallelismDoesNotMatter() {
    ChaosProfile p =
        ChaosProfileParser.parse(
            ChaosProfileParser.load("generic-650"), Semantics.HOTPLUG_AWARE, true);
    List<SeedResult> one = ChaosSuite.run(p, 5, 7, 1, r -> {});
    List<SeedResult> two = ChaosSuite.run(p, 5, 7, 2, r -> {});
    for (int i = 0; i < one.size(); i++) {
      assertThat(two.get(i).digest()).isEqualTo(one.get(i).digest());
      assertThat(two.get(i).events()).isEqualTo(one.get(i).events());
    }
    assertThat(one.get(0).digest()).isNotEqualTo(one.get(1).digest());
  }

  @Test
  void scriptedHotplugMovesWorkAndEveryCpuServesAgain() {
    SeedResult r =
        ChaosRun.run(
            small(
                "events = [\"at 5ms offline cpu 1\", \"at 30ms online cpu 1\", "
                    + "\"at 40ms offline cpu 1\"]",
                ""),
            1);
    assertThat(r.violations()).isEmpty();
    assertThat(r.events())
        .containsExactly(
            "at 5ms offline cpu 1",
            "at 30ms online cpu 1",
            "at 40ms offline cpu 1",
            r.events().get(3));
    assertThat(r.events().get(3)).endsWith("online cpu 1"); // the cleanup before the per-CPU check
    assertThat(r.hotplug()).isEqualTo(4);
    assertThat(r.requests()).isEqualTo(2 * 2 * 200 + 2 * 16);
  }

  @Test
  void underKernelSemanticsAServerThreadStaysWhereHotplugMovedIt() {
    String events = "events = [\"at 5ms offline cpu 1\", \"at 10ms online cpu 1\"]";
    long kernel = serverItemsOnCpu1(small(events + "\nsemantics = kernel", ""));
    long aware = serverItemsOnCpu1(small(events + "\nsemantics = hotplug-aware", ""));
    // two iterations of 2 x 200 requests and the per-CPU check: with its thread back home
    // (hotplug-aware) CPU 1
    // serves queue 1 for almost the whole run; under kernel semantics the thread stays on CPU 0 for
    // the rest of the
    // first iteration, and the remount's new session pins it home again (libfuse
    // fuse_uring_set_thread_core)
    assertThat(aware).isGreaterThan(200);
    assertThat(kernel).isLessThan(aware - 50).isGreaterThan(aware / 2);
    // the ring thread also ends the requests (COMMIT_AND_FETCH in its io_uring_enter): they move
    // with it
    long kernelEnds = itemsOnCpu1(small(events + "\nsemantics = kernel", ""), Work.COMPLETION);
    long awareEnds =
        itemsOnCpu1(small(events + "\nsemantics = hotplug-aware", ""), Work.COMPLETION);
    assertThat(kernelEnds).isLessThan(awareEnds - 50);
  }

  private static long serverItemsOnCpu1(ChaosProfile p) {
    return itemsOnCpu1(p, Work.SERVER);
  }

  private static long itemsOnCpu1(ChaosProfile p, Work kind) {
    MachineResult r = ChaosRun.machine(p, 1);
    assertThat(ChaosRun.check(p, 1, r).violations()).isEmpty();
    return r.cores().get(1).byKind()[kind.ordinal()];
  }

  @Test
  void faultsEndRequestsWithErrorsNotLosses() {
    SeedResult r =
        ChaosRun.run(
            small(
                "events = [\"at 1ms eio queue 0 rate 1 for 10ms\", "
                    + "\"at 1ms enomem queue 1 rate 1 for 10ms\", \"at 20ms stall queue 0 for 5ms\", "
                    + "\"at 30ms slow queue 1 x20 for 5ms\", \"at 40ms ring-full queue 0 slots 1 for 5ms\"]",
                VIRTIO),
            3);
    assertThat(r.violations()).isEmpty();
    assertThat(r.errors())
        .isGreaterThan(50); // 10 ms of EIO and ENOMEM at 100 us per request, two writers each
    assertThat(r.faults()).isEqualTo(5);
  }

  @Test
  void theV2EnomemRequeueIsReportedAsADeadlockNamingTheRequestAndQueue() {
    SeedResult r =
        ChaosRun.run(
            small(
                "events = [\"at 2ms enomem queue 1 rate 1\"]",
                VIRTIO + "\nqueues.enqueue-error = requeue"),
            1);
    assertThat(r.passed()).isFalse();
    // both writers can end up parked on queue 1: woken writers move between the two CPUs
    // (select_idle_sibling)
    assertThat(r.violations())
        .anySatisfy(
            v ->
                assertThat(v)
                    .startsWith("deadlock: stall: job")
                    .containsPattern("queue 1 \\(cpu 1\\): on ring 0, overflow [12],")
                    .contains("stuck ["));
  }

  @Test
  void theMergedFormReturnsEnomemInstead() {
    SeedResult r = ChaosRun.run(small("events = [\"at 2ms enomem queue 1 rate 1\"]", VIRTIO), 1);
    assertThat(r.violations()).isEmpty();
    assertThat(r.errors()).isGreaterThan(100);
  }

  @Test
  void aQueueThatDropsARequestIsReportedAsALostRequest() {
    SeedResult r = ChaosRun.run(small("events = [\"at 3ms lose queue 1 count 1\"]", ""), 1);
    assertThat(r.passed()).isFalse();
    assertThat(r.violations()).anySatisfy(v -> assertThat(v).startsWith("lost request(s) [0x"));
    assertThat(r.violations())
        .anySatisfy(v -> assertThat(v).contains("in_flight 1 != on_ring 0 + queued 0"));
  }

  @Test
  void aLongWaitOnAQueueIsAViolation() {
    SeedResult r =
        ChaosRun.run(small("max-wait = 5ms\nevents = [\"at 2ms stall queue 0 for 8ms\"]", ""), 1);
    assertThat(r.violations())
        .anySatisfy(
            v ->
                assertThat(v)
                    .contains("queue 0 (cpu 0): a request waited")
                    .contains("more than max-wait 5ms"));
  }

  @Test
  void aReplayFileReproducesTheFailure(@TempDir Path dir) throws Exception {
    ChaosProfile p =
        small("hotplug-interval = 3ms\nevents = [\"at 9ms lose queue 0 count 1\"]", "");
    SeedResult first = ChaosRun.run(p, 11);
    assertThat(first.passed()).isFalse();
    Path file = dir.resolve("replay.conf");
    ReplayFile.of(p, first).write(file);
    ReplayFile rec = ReplayFile.read(file);
    SeedResult again = ChaosRun.run(rec.profile(), rec.seed());
    assertThat(rec.divergence(again)).isNull();
    assertThat(again.events()).isEqualTo(first.events()).hasSizeGreaterThan(3);
    assertThat(again.digest()).isEqualTo(first.digest());
    assertThat(again.violations()).isEqualTo(first.violations());
    SeedResult other = ChaosRun.run(rec.profile(), rec.seed() + 1);
    assertThat(rec.divergence(other)).isNotNull();
  }

  @Test
  void aVirtioQueueStaysInTheMasksWhileAnyCpuOfItsGroupIsOnline() {
    String text =
        """
        machine { numa-nodes = 1, cores-per-node = 4 }
        queues { kind = virtio, count = 2, ring-size = 8 }
        router.selector = mq-map
        device = "fixed(100us)"
        chaos {
          semantics = hotplug-aware
          iterations = 1
          hotplug-interval = 0
          writer = "rw=randwrite\\nioengine=io_uring\\niodepth=4"
          ops-per-writer = 200
          events = ["at 2ms offline cpu 2", "at 9ms offline cpu 3", "at 15ms online cpu 2"]
        }
        """;
    SeedResult r =
        ChaosRun.run(
            ChaosProfileParser.parse(
                new ChaosProfileParser.Source("virtio.conf", text), null, false),
            1);
    assertThat(r.violations()).isEmpty();
    // CPU 2 takes queue 1's interrupt, CPU 3 keeps the queue alive; only between 9 ms and 15 ms is
    // every CPU of
    // the group offline, and then the writers of CPUs 2 and 3 have moved to CPU 0 or 1, which map
    // to queue 0
    assertThat(r.errors()).isZero();
  }

  @Test
  void badProfilesNameTheKey() {
    Assertions.assertThatThrownBy(() -> small("hotpluggable = [0, 1]", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("chaos.hotpluggable")
        .hasMessageContaining("CPU 0");
    Assertions.assertThatThrownBy(() -> small("events = [\"at 1ms offline cpu 7\"]", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("chaos.events")
        .hasMessageContaining("not hotpluggable");
    Assertions.assertThatThrownBy(() -> small("iteratons = 3", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("did you mean \"chaos.iterations\"");
    Assertions.assertThatThrownBy(() -> small("writer = \"bs=8k\"", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("must not set bs=");
    // an option the machine refuses is blamed on chaos.writer, not on a line of the generated job
    // file
    Assertions.assertThatThrownBy(() -> small("writer = \"rw=randwrite\\nfsync=1\"", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("chaos.writer")
        .hasMessageContaining("fsync=1")
        .hasMessageNotContaining("generated");
    // too many job clones comes from iterations (and load-factor), not from the writer's options
    Assertions.assertThatThrownBy(() -> small("iterations = 1000\nload-factor = 8", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("chaos.iterations")
        .hasMessageContaining("job clones");
    Assertions.assertThatThrownBy(() -> small("semantics = blk-mq", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("kernel, hotplug-aware");
    // a fault schedule that would never open a window, or open empty ones, would silently do
    // nothing
    Assertions.assertThatThrownBy(() -> small("faults { stall { every = 10ms } }", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("chaos.faults.stall.for")
        .hasMessageContaining("> 0");
    Assertions.assertThatThrownBy(() -> small("faults { eio { for = 1ms, rate = 1 } }", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("chaos.faults.eio.every");
    // -ENOMEM from virtqueue_add_sgs has no counterpart on a fuse-over-io-uring queue
    Assertions.assertThatThrownBy(() -> small("faults { enomem { every = 10ms, for = 1ms } }", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("only virtio queues have");
    Assertions.assertThatThrownBy(() -> small("events = [\"at 1ms enomem queue 0 rate 1\"]", ""))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("only virtio queues have");
    Assertions.assertThatThrownBy(() -> small("", "queues.enomem-probability = 0.1"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("queues.enomem-probability")
        .hasMessageContaining("only virtio queues have");
  }

  @Test
  void aReplayFileCannotIncludePastItsSizeLimitOrFromAUrl(@TempDir Path dir) throws Exception {
    Path big = dir.resolve("big.conf");
    Files.writeString(
        big, "x = \"" + "a".repeat((int) ChaosProfileParser.MAX_FILE_BYTES * 4) + "\"\n");
    Path file = dir.resolve("replay.conf");
    Files.writeString(file, "include file(\"" + big + "\")\n");
    Assertions.assertThatThrownBy(() -> ReplayFile.read(file))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("big.conf: larger than 4 MiB");
    Files.writeString(file, "include url(\"http://127.0.0.1:9/replay.conf\")\n");
    Assertions.assertThatThrownBy(() -> ReplayFile.read(file))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("include url(http://127.0.0.1:9/replay.conf) is not allowed");
  }
}
