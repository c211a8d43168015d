package io.mqroute.cluster.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.cluster.DeviceQueue;
import io.mqroute.cluster.HostRouter;
import io.mqroute.cluster.HostRouterProtocol;
import io.mqroute.cluster.HostRouterSettings;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.FioJsonReport;
import io.mqroute.metrics.FioTextReport;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.HostAlive;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.Status;
import io.mqroute.workload.FioJobFile;
import io.mqroute.workload.FioJobParser;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * An fio job file through a host router and a device queue in one local system: every request of
 * every clone is issued and recorded, stonewall groups run one after the other, the fio reports
 * render.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Tag("integration")
class LoadRunnerTest {
  private static final Duration WAIT = Duration.ofSeconds(30);
  private final ActorTestKit kit = ActorTestKit.create();

  @AfterAll
  void shutDown() {
    kit.shutdownTestKit();
  }

  private ActorRef<HostRouterProtocol.Command> router;

  @BeforeAll
  void startRouterAndQueue() {
    kit.spawn(
        DeviceQueue.create(
            new DeviceQueue.Settings(0, 4, new DeviceQueue.NullBackend(Duration.ZERO))),
        "q0");
    router = kit.spawn(HostRouter.create(HostRouterSettings.defaults()), "router");
    TestProbe<HostRouterProtocol.Slots> slots = kit.createTestProbe();
    slots.awaitAssert(
        WAIT,
        () -> {
          router.tell(new HostRouterProtocol.GetSlots(slots.ref()));
          assertThat(slots.receiveMessage(WAIT).queues().stream().filter(Objects::nonNull).count())
              .isEqualTo(1);
          return null;
        });
  }

  @Test
  void rampTimeIsRunButNotMeasuredAndRuntimeCountsFromItsEnd() throws Exception {
    FioJobFile file =
        FioJobParser.parse(
            "ramp.fio",
            """
        [ramped]
        ioengine=libaio
        rw=randread
        bs=4k
        size=1m
        iodepth=4
        time_based
        ramp_time=200ms
        runtime=300ms
        """);
    List<ActorRef<Request>> routers = LoadRunner.awaitRouters(kit.system(), WAIT);
    long before = System.nanoTime();
    LoadRunner.Result r = LoadRunner.run(kit.system(), file, routers, WAIT, WAIT);
    JobStats s = r.clones().get(0);
    // timers never fire early: the window opens after the ramp, and closes after ramp + runtime
    // from the start
    assertThat(s.windowStartNs() - before).isGreaterThanOrEqualTo(200_000_000L);
    assertThat(s.windowEndNs() - before).isGreaterThanOrEqualTo(500_000_000L);
    assertThat(s.direction(Direction.READ).totalIos())
        .as("only the measured requests count")
        .isLessThan(r.requests());
    assertThat(r.errors()).isZero();
  }

  @Test
  void aJobFileRunsToTheEndAndIsReportedAsFioWould() throws Exception {
    FioJobFile file =
        FioJobParser.parse(
            "test.fio",
            """
        [global]
        ioengine=libaio
        bs=4k

        [mixed]
        rw=randrw
        rwmixread=70
        size=1m
        iodepth=8
        numjobs=2

        [seq]
        stonewall
        ioengine=psync
        rw=read
        size=64k
        """);
    List<ActorRef<Request>> routers = LoadRunner.awaitRouters(kit.system(), WAIT);
    LoadRunner.Result r = LoadRunner.run(kit.system(), file, routers, WAIT, WAIT);

    assertThat(r.byStatus()).containsOnlyKeys(Status.OK);
    assertThat(r.requests()).isEqualTo(2 * 256 + 16);
    assertThat(r.clones())
        .extracting(s -> s.info().name())
        .containsExactly("mixed", "mixed", "seq");
    for (JobStats s : r.clones().subList(0, 2)) {
      long reads = s.direction(Direction.READ).totalIos();
      long writes = s.direction(Direction.WRITE).totalIos();
      assertThat(reads + writes).isEqualTo(256);
      assertThat(reads).isBetween(140L, 220L); // rwmixread=70 of 256
    }
    JobStats seq = r.clones().get(2);
    assertThat(seq.direction(Direction.READ).totalIos()).isEqualTo(16);
    assertThat(seq.windowStartNs())
        .as("stonewall: after the first group")
        .isGreaterThanOrEqualTo(
            Math.max(r.clones().get(0).windowEndNs(), r.clones().get(1).windowEndNs()));
    assertThat(FioTextReport.render(r.clones(), "real"))
        .contains("mixed: (groupid=0", "seq: (groupid=1", "Run status group 1");
    assertThat(FioJsonReport.render(r.clones(), file.globalOptions(), "test", 0))
        .contains("\"jobname\" : \"seq\"");
  }

  @Test
  void aHostThatAnswersNothingIsTakenAsLostWithinTheHostTimeoutAndWhatItHadEndsAborted()
      throws Exception {
    // a host router that answers its first batch, then nothing (a host killed or stopped mid-run)
    boolean[] answered = {false};
    ActorRef<Object> silent =
        kit.spawn(
            Behaviors.receive(Object.class)
                .onMessage(
                    RequestBatch.class,
                    b -> {
                      if (!answered[0]) {
                        answered[0] = true;
                        b.replyTo()
                            .tell(
                                new CompletionBatch(
                                    b.requests().stream()
                                        .map(q -> new Completion(q.id(), Status.OK, 0, 0, 0, 0))
                                        .toList()));
                      }
                      return Behaviors.same();
                    })
                .build());
    FioJobFile file = longJob("silent");
    CompletableFuture<LoadRunner.Result> load =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return LoadRunner.run(
                    kit.system(),
                    file,
                    List.of(silent.narrow()),
                    WAIT,
                    Duration.ofMillis(300),
                    WAIT);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    // far below the 60 s runtime and the 30 s stall limit: only the host timeout ends it this soon
    LoadRunner.Result r = load.get(10, TimeUnit.SECONDS);
    assertThat(r.byStatus()).containsOnlyKeys(Status.OK, Status.ECONNABORTED);
    // the first batch holds what the job issued before the client's Flush: 1 to 4 requests
    assertThat(r.byStatus().get(Status.OK)).as("the first batch").isBetween(1L, 4L);
    assertThat(r.byStatus().get(Status.ECONNABORTED)).as("the next, unanswered").isEqualTo(4L);
    assertThat(r.abandoned()).as("ended by the host timeout, not the stall limit").isZero();
    assertThat(r.violations()).isEmpty();
  }

  @Test
  void aHostThatSaysItIsAliveIsNotTakenAsLostWhileItsDeviceIsSilent() throws Exception {
    // answers the first batch, holds the second (its device is silent) for 6 host timeouts while
    // sending HostAlive every 50 ms, then answers it and falls silent for good
    long[] heldOk = {0};
    ActorRef<Object> patient =
        kit.spawn(
            Behaviors.<Object>withTimers(
                timers -> {
                  int[] batches = {0};
                  int[] alive = {0};
                  RequestBatch[] held = {null};
                  return Behaviors.receive(Object.class)
                      .onMessage(
                          RequestBatch.class,
                          b -> {
                            if (++batches[0] == 1) {
                              b.replyTo().tell(ok(b));
                            } else if (batches[0] == 2) {
                              held[0] = b;
                              timers.startTimerWithFixedDelay("alive", Duration.ofMillis(50));
                            }
                            return Behaviors.same();
                          })
                      .onMessageEquals(
                          "alive",
                          () -> {
                            RequestBatch b = held[0];
                            if (++alive[0] <= 60) {
                              @SuppressWarnings("unchecked")
                              ActorRef<HostAlive> to =
                                  (ActorRef<HostAlive>) (ActorRef<?>) b.replyTo();
                              to.tell(new HostAlive(b.requests().size()));
                            } else {
                              timers.cancel("alive");
                              heldOk[0] = b.requests().size();
                              b.replyTo().tell(ok(b));
                            }
                            return Behaviors.same();
                          })
                      .build();
                }));
    FioJobFile file = longJob("patient");
    LoadRunner.Result r =
        LoadRunner.run(
            kit.system(), file, List.of(patient.narrow()), WAIT, Duration.ofMillis(500), WAIT);
    assertThat(heldOk[0]).as("the held batch was answered at last").isPositive();
    // without the keep-alive the held batch would have ended ECONNABORTED after 500 ms
    assertThat(r.byStatus().get(Status.OK))
        .as("the first batch and the held one, 3 s after it was sent")
        .isGreaterThan(heldOk[0]);
    assertThat(r.byStatus().get(Status.ECONNABORTED))
        .as("what came after, unanswered")
        .isPositive();
    assertThat(r.abandoned()).isZero();
    assertThat(r.violations()).isEmpty();
  }

  /** 4 KiB random reads at iodepth 4 for 60 s: only the host check can end it early. */
  private static FioJobFile longJob(String name) {
    return FioJobParser.parse(
        name + ".fio",
        "["
            + name
            + "]\nioengine=libaio\nrw=randread\nbs=4k\nsize=1m\niodepth=4\ntime_based\n"
            + "runtime=60s\n");
  }

  private static CompletionBatch ok(RequestBatch b) {
    return new CompletionBatch(
        b.requests().stream().map(q -> new Completion(q.id(), Status.OK, 0, 0, 0, 0)).toList());
  }

  @Test
  void aHostThatNeverAnswersIsTakenAsLostAfterTheFirstAnswerBound() throws Exception {
    // killed before it answered anything: the first batch's bound is FIRST_ANSWER_FACTOR x 100 ms
    ActorRef<Object> mute = kit.spawn(Behaviors.receive(Object.class).build());
    FioJobFile file = longJob("mute");
    CompletableFuture<LoadRunner.Result> load =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return LoadRunner.run(
                    kit.system(),
                    file,
                    List.of(mute.narrow()),
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    WAIT);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    long t0 = System.nanoTime();
    // the 30 s stall limit and the 60 s runtime are far away: only the host check ends it this soon
    LoadRunner.Result r = load.get(20, TimeUnit.SECONDS);
    assertThat(System.nanoTime() - t0)
        .as("not before the first-answer bound")
        .isGreaterThanOrEqualTo(RouterClient.FIRST_ANSWER_FACTOR * 100_000_000L);
    assertThat(r.byStatus()).containsOnlyKeys(Status.ECONNABORTED);
    assertThat(r.abandoned()).as("ended by the host check, not the stall limit").isZero();
    assertThat(r.violations()).isEmpty();
  }

  @Test
  void whatMqrouteRunHonoursLoadHonoursToo() throws Exception {
    // refused by the load client before it ran the model's job: number_ios, bssplit, thinktime
    FioJobFile file =
        FioJobParser.parse(
            "honoured.fio",
            """
        [mixed]
        ioengine=libaio
        rw=randread
        bssplit=4k/50:8k/50
        size=1m
        iodepth=4
        number_ios=37
        thinktime=1ms
        thinktime_blocks=10
        """);
    LoadRunner.Result r =
        LoadRunner.run(kit.system(), file, LoadRunner.awaitRouters(kit.system(), WAIT), WAIT, WAIT);
    assertThat(r.requests()).as("number_ios").isEqualTo(37);
    assertThat(r.errors()).isZero();
    long bytes = r.clones().get(0).direction(Direction.READ).ioBytes();
    assertThat(bytes % 4096).isZero();
    assertThat(bytes).as("both block sizes drawn").isGreaterThan(37L * 4096).isLessThan(37L * 8192);
  }
}
