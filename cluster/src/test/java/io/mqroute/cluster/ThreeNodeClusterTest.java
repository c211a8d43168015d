package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.protocol.wire.KryoSerializer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.FishingOutcomes;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.actor.typed.receptionist.ServiceKey;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.apache.pekko.serialization.SerializationExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The shipped {@code cluster-config/cluster.conf} forms a three-node cluster (one host, two
 * devices) in one JVM; a {@link Request} found through the Receptionist crosses nodes as Kryo bytes
 * and is answered with a {@link Completion}; a device node that leaves is removed from the host's
 * view, and so is its service.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // the last test takes a node away
@Tag("integration")
class ThreeNodeClusterTest {
  private static final ServiceKey<Request> QUEUES =
      ServiceKey.create(Request.class, "mqroute-queue");
  private static final Duration FORM = Duration.ofSeconds(20);
  private static final Duration LEAVE = Duration.ofSeconds(30);

  private ActorSystem<Void> host;
  private ActorSystem<Void> deviceA;
  private ActorSystem<Void> deviceB;
  private ActorTestKit hostKit;
  private ActorTestKit deviceKit;

  /**
   * The shipped settings with what one JVM needs on top (surefire runs in the module directory).
   */
  private static Config nodeConfig(String role) {
    Config shipped = ConfigFactory.parseFile(Path.of("../cluster-config/cluster.conf").toFile());
    assertThat(shipped.isEmpty()).as("cluster-config/cluster.conf found").isFalse();
    Config overrides =
        ConfigFactory.parseString(
            """
        # port 0: Artery binds a free port and publishes it as the canonical address (no port races)
        pekko.remote.artery.canonical.port = 0
        # joined programmatically below, the shipped seed ports may be taken on a build machine
        pekko.cluster.seed-nodes = []
        pekko.cluster.roles = [%s]
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        # the JVM is the test runner's: never exit it, and leave no shutdown hooks behind
        pekko.coordinated-shutdown.exit-jvm = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        # graceful leaving does not wait for SBR, but keep a crash-downing decision within the test's bounds
        pekko.cluster.split-brain-resolver.stable-after = 3s
        pekko.loglevel = WARNING
        pekko.log-dead-letters = off
        pekko.log-dead-letters-during-shutdown = off
        """
                .formatted(role));
    // the shipped files run Artery over mutual TLS: the test cluster has its own keys
    return overrides
        .withFallback(TestKeys.artery())
        .withFallback(shipped)
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  private static Address address(ActorSystem<?> system) {
    return Cluster.get(system).selfMember().address();
  }

  /**
   * A device-side queue that answers every request at once (stands in for the queue and the
   * device).
   */
  private static Behavior<Request> queue(int index) {
    return Behaviors.receiveMessage(
        r -> {
          r.replyTo()
              .tell(
                  new Completion(
                      r.id(),
                      Status.OK,
                      r.submitNanos(),
                      r.submitNanos() + 1,
                      r.submitNanos() + 2,
                      index));
          return Behaviors.same();
        });
  }

  @BeforeAll
  void formCluster() {
    host = ActorSystem.create(Behaviors.empty(), "mqroute", nodeConfig("host"));
    deviceA = ActorSystem.create(Behaviors.empty(), "mqroute", nodeConfig("device"));
    deviceB = ActorSystem.create(Behaviors.empty(), "mqroute", nodeConfig("device"));
    hostKit = ActorTestKit.create(host);
    deviceKit = ActorTestKit.create(deviceA);

    Address hostAddress = address(host);
    for (ActorSystem<Void> node : List.of(host, deviceA, deviceB)) {
      Cluster.get(node).manager().tell(Join.create(hostAddress));
    }
    TestProbe<Object> waiter = hostKit.createTestProbe();
    for (ActorSystem<Void> node : List.of(host, deviceA, deviceB)) {
      waiter.awaitAssert(
          FORM,
          () -> {
            assertThat(upMembers(node)).hasSize(3);
            return null;
          });
    }
  }

  @AfterAll
  void shutDown() throws Exception {
    // terminate all first, then wait: they leave in parallel
    for (ActorSystem<Void> node : List.of(deviceA, deviceB, host)) {
      if (node != null) {
        node.terminate();
      }
    }
    for (ActorSystem<Void> node : List.of(deviceA, deviceB, host)) {
      if (node != null) {
        Termination.await(node, "a node after the test");
      }
    }
  }

  private static Set<Address> upMembers(ActorSystem<?> node) {
    return StreamSupport.stream(Cluster.get(node).state().getMembers().spliterator(), false)
        .filter(m -> m.status() == MemberStatus.up())
        .map(m -> m.address())
        .collect(Collectors.toSet());
  }

  @Test
  @Order(1)
  void rolesPortsAndFrameSizeComeFromTheShippedConfig() {
    assertThat(Cluster.get(host).selfMember().getRoles()).contains("host");
    assertThat(Cluster.get(deviceA).selfMember().getRoles()).contains("device");
    Config node =
        ConfigFactory.parseFile(Path.of("../cluster-config/device-b.conf").toFile()).resolve();
    assertThat(node.getInt("pekko.remote.artery.canonical.port")).isEqualTo(25522);
    assertThat(node.getStringList("pekko.cluster.roles")).containsExactly("device");
    assertThat(node.getStringList("pekko.cluster.seed-nodes"))
        .hasSize(3)
        .allMatch(s -> s.startsWith("pekko://mqroute@127.0.0.1:2552"));
    assertThat(node.getString("pekko.cluster.downing-provider-class"))
        .isEqualTo("org.apache.pekko.cluster.sbr.SplitBrainResolverProvider");
    assertThat(node.getBoolean("pekko.coordinated-shutdown.exit-jvm")).isTrue();
    // a frame must hold the largest message the Kryo serializer accepts, plus the envelope
    long frame =
        host.settings().config().getBytes("pekko.remote.artery.advanced.maximum-frame-size");
    long message = host.settings().config().getBytes("mqroute.wire.max-message-size");
    assertThat(frame).isGreaterThan(message).isLessThanOrEqualTo(message + 16 * 1024);
  }

  @Test
  @Order(2)
  void aRequestCrossesNodesAsKryoAndIsAnsweredAndALeavingDeviceIsRemoved() {
    ActorRef<Request> queue = deviceKit.spawn(queue(3), "queue-3");
    TestProbe<Receptionist.Registered> registered = deviceKit.createTestProbe();
    deviceA.receptionist().tell(Receptionist.register(QUEUES, queue, registered.ref()));
    registered.expectMessageClass(Receptionist.Registered.class, FORM);

    // The host finds the device's queue through the (cluster) Receptionist.
    TestProbe<Receptionist.Listing> listings = hostKit.createTestProbe();
    host.receptionist().tell(Receptionist.subscribe(QUEUES, listings.ref()));
    List<Receptionist.Listing> seen =
        listings.fishForMessage(
            FORM,
            "listing with the device's queue",
            l ->
                l.getServiceInstances(QUEUES).isEmpty()
                    ? FishingOutcomes.continueAndIgnore()
                    : FishingOutcomes.complete());
    ActorRef<Request> remote =
        seen.get(seen.size() - 1).getServiceInstances(QUEUES).iterator().next();
    assertThat(remote.path().address()).isEqualTo(address(deviceA)).isNotEqualTo(address(host));

    Request request = new Request(42, Op.READ, 7, 4096, 512, false, 1, 1_000, null);
    assertThat(SerializationExtension.get(Adapter.toClassic(host)).findSerializerFor(request))
        .isInstanceOf(KryoSerializer.class);

    TestProbe<Completion> completions = hostKit.createTestProbe();
    remote.tell(request.withReplyTo(completions.ref()));
    assertThat(completions.receiveMessage(FORM))
        .isEqualTo(new Completion(42, Status.OK, 1_000, 1_001, 1_002, 3));

    // The device node leaves (graceful terminate: coordinated shutdown leaves the cluster first).
    Address gone = address(deviceA);
    deviceA.terminate();
    TestProbe<Object> waiter = hostKit.createTestProbe();
    waiter.awaitAssert(
        LEAVE,
        () -> {
          assertThat(upMembers(host)).doesNotContain(gone).hasSize(2);
          assertThat(
                  StreamSupport.stream(Cluster.get(host).state().getMembers().spliterator(), false)
                      .map(m -> m.address()))
              .doesNotContain(gone);
          return null;
        });
    // ... and its queue leaves the host's listing (architecture.md §5a: a departed node's queues
    // leave the masks)
    listings.fishForMessage(
        LEAVE,
        "listing without the departed queue",
        l ->
            l.getServiceInstances(QUEUES).isEmpty()
                ? FishingOutcomes.complete()
                : FishingOutcomes.continueAndIgnore());
  }
}
