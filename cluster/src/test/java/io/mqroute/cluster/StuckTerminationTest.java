package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.PostStop;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A system whose termination never completes after its coordinated shutdown has finished (as Pekko
 * 1.7's Artery can, apache/pekko#3247) is reported stopped once the shutdown's phases are done and
 * the grace has passed, and a system that terminates is reported at once.
 */
@Tag("integration")
class StuckTerminationTest {
  @Test
  void aSystemStuckAfterItsShutdownPhasesCountsAsStoppedAfterTheGrace() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch started = new CountDownLatch(1);
    // stands in for Artery's stalled stream: the guardian's stop waits for this actor, which
    // holds its thread until the test releases it
    ActorSystem<Void> system =
        ActorSystem.create(
            Behaviors.<Void>setup(
                ctx -> {
                  started.countDown();
                  return Behaviors.<Void>receive(Void.class)
                      .onSignal(
                          PostStop.class,
                          s -> {
                            release.await(60, TimeUnit.SECONDS);
                            return Behaviors.same();
                          })
                      .build();
                }),
            "stuck",
            ConfigFactory.parseString(
                    "pekko.coordinated-shutdown.phases.actor-system-terminate.timeout = 1s\n"
                        + "pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off\n"
                        + "pekko.loglevel = ERROR")
                .withFallback(ConfigFactory.load()));
    try {
      // a system terminated before its guardian ran the behaviour's setup never calls the
      // behaviour's PostStop (it was seen on CI): the stall must be in place first
      assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
      system.terminate();
      long start = System.nanoTime();
      assertThat(ClusterNode.awaitTermination(system, Duration.ofSeconds(30))).isTrue();
      long tookMs = (System.nanoTime() - start) / 1_000_000;
      assertThat(system.getWhenTerminated().toCompletableFuture().isDone())
          .as("still terminating: the phases' end and the grace decided")
          .isFalse();
      assertThat(tookMs).isGreaterThanOrEqualTo(ClusterNode.ARTERY_STOP_GRACE.toMillis());
    } finally {
      release.countDown();
    }
    assertThat(ClusterNode.awaitTermination(system, Duration.ofSeconds(30))).isTrue();
    assertThat(system.getWhenTerminated().toCompletableFuture().isDone()).isTrue();
  }

  @Test
  void aSystemWhoseShutdownHasNotBegunIsNotStopped() {
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), "running");
    try {
      assertThat(ClusterNode.awaitTermination(system, Duration.ofMillis(200))).isFalse();
    } finally {
      system.terminate();
      assertThat(ClusterNode.awaitTermination(system, Duration.ofSeconds(30))).isTrue();
    }
  }
}
