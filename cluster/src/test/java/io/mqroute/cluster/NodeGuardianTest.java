package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.List;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.InternalActorRef;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A node whose queue (or router) stops does not stay Up with nothing behind it: it shuts down, exit
 * code 1.
 */
@Tag("integration")
class NodeGuardianTest {
  private ActorSystem<Void> system;

  @AfterEach
  void shutDown() {
    if (system != null) {
      system.terminate();
      ClusterNode.awaitTermination(system, Duration.ofSeconds(30));
    }
  }

  private static Config config(NodeSettings.Role role) {
    return ConfigFactory.parseString(
            """
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        pekko.management.http.port = -1
        """)
        .withFallback(
            new NodeSettings(role, 0, List.of(), null, null, -1, -1, TestKeys.dir(), false)
                .toConfig())
        .resolve();
  }

  /** Stops an actor from outside, as a crash would (typed actors ignore a classic PoisonPill). */
  private void stop(String path) {
    // the guardian spawns it once the system has started: poll for it with a timeout
    ActorRef ref =
        ActorTestKit.create(system)
            .createTestProbe()
            .awaitAssert(
                Duration.ofSeconds(10),
                () -> {
                  try {
                    return system
                        .classicSystem()
                        .actorSelection(path)
                        .resolveOne(Duration.ofSeconds(1))
                        .toCompletableFuture()
                        .get();
                  } catch (Exception e) {
                    throw new AssertionError(path + " not found", e);
                  }
                });
    ((InternalActorRef) ref).stop();
  }

  @Test
  void aStoppedQueueShutsTheDeviceNodeDownWithExitCodeOne() {
    system = ClusterNode.start(NodeSettings.Role.DEVICE, config(NodeSettings.Role.DEVICE)).system();
    stop("/user/queue-1");
    assertThat(ClusterNode.awaitTermination(system, Duration.ofSeconds(30)))
        .as("the node ends")
        .isTrue();
    CoordinatedShutdown cs = CoordinatedShutdown.get(system.classicSystem());
    assertThat(cs.getShutdownReason()).contains(NodeGuardian.ChildStopped.INSTANCE);
    assertThat(
            system
                .settings()
                .config()
                .getInt(
                    "pekko.coordinated-shutdown.reason-overrides.\""
                        + NodeGuardian.ChildStopped.class.getName()
                        + "\".exit-code"))
        .isEqualTo(1);
  }

  @Test
  void aStoppedRouterShutsTheHostNodeDown() {
    system = ClusterNode.start(NodeSettings.Role.HOST, config(NodeSettings.Role.HOST)).system();
    stop("/user/router");
    assertThat(ClusterNode.awaitTermination(system, Duration.ofSeconds(30))).isTrue();
    assertThat(CoordinatedShutdown.get(system.classicSystem()).getShutdownReason())
        .contains(NodeGuardian.ChildStopped.INSTANCE);
  }
}
