package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.RequestBatch;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.actor.typed.receptionist.Receptionist;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.typed.Cluster;
import org.apache.pekko.cluster.typed.Join;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A device serves members of its cluster only: a system that merely connects gets nothing done,
 * nothing back.
 */
@Tag("integration")
class DeviceStrangerTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private ActorSystem<Void> device;
  private ActorSystem<Void> stranger;

  private static Config node(String provider) {
    return ConfigFactory.parseString(
            """
        pekko.actor.provider = %s
        pekko.remote.artery.transport = tcp
        pekko.remote.artery.canonical.hostname = 127.0.0.1
        pekko.remote.artery.canonical.port = 0
        pekko.loglevel = ERROR
        pekko.log-dead-letters = off
        pekko.coordinated-shutdown.run-by-jvm-shutdown-hook = off
        pekko.cluster.jmx.multi-mbeans-in-same-jvm = on
        """
                .formatted(provider))
        .withFallback(ConfigFactory.load())
        .resolve();
  }

  @AfterEach
  void shutDown() {
    for (ActorSystem<Void> s : Arrays.asList(stranger, device)) {
      if (s != null) {
        s.terminate();
      }
    }
    for (ActorSystem<Void> s : Arrays.asList(stranger, device)) {
      if (s != null) {
        ClusterNode.awaitTermination(s, WAIT);
      }
    }
  }

  private static Request request(long id) {
    return new Request(id, Op.READ, 1, 0, 4096, true, 0, 0, null);
  }

  @Test
  void requestsWhoseReplyToIsNotAMemberAreDroppedAndCounted() {
    device = ActorSystem.create(Behaviors.empty(), "mqroute", node("cluster"));
    stranger = ActorSystem.create(Behaviors.empty(), "mqroute", node("remote"));
    Cluster cluster = Cluster.get(device);
    cluster.manager().tell(Join.create(cluster.selfMember().address()));
    ActorTestKit deviceKit = ActorTestKit.create(device);
    ActorTestKit strangerKit = ActorTestKit.create(stranger);
    deviceKit
        .createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(cluster.selfMember().status()).isEqualTo(MemberStatus.up());
              return null;
            });
    deviceKit.spawn(
        DeviceQueue.create(
            new DeviceQueue.Settings(0, 8, new DeviceQueue.NullBackend(Duration.ZERO))),
        "queue-0");
    TestProbe<Receptionist.Listing> listing = deviceKit.createTestProbe();
    ActorRef<Request> queue =
        listing.awaitAssert(
            WAIT,
            () -> {
              device.receptionist().tell(Receptionist.find(DeviceQueue.QUEUES, listing.ref()));
              var set = listing.receiveMessage(WAIT).getServiceInstances(DeviceQueue.QUEUES);
              assertThat(set).hasSize(1);
              return set.iterator().next();
            });
    @SuppressWarnings("unchecked")
    ActorRef<RequestBatch> remoteQueue =
        (ActorRef<RequestBatch>)
            (ActorRef<?>)
                ActorRefResolver.get(stranger)
                    .resolveActorRef(ActorRefResolver.get(device).toSerializationFormat(queue));

    TestProbe<CompletionBatch> outsider = strangerKit.createTestProbe();
    remoteQueue.tell(new RequestBatch(List.of(request(1), request(2)), outsider.ref()));
    outsider.expectNoMessage(Duration.ofMillis(500));
    deviceKit
        .createTestProbe()
        .awaitAssert(
            WAIT,
            () -> {
              assertThat(NodeMetrics.get(device).dropped())
                  .containsEntry(DeviceQueue.DROPPED_STRANGER, 1L);
              return null;
            });

    // the same queue still serves its own system
    TestProbe<CompletionBatch> member = deviceKit.createTestProbe();
    @SuppressWarnings("unchecked")
    ActorRef<RequestBatch> localQueue = (ActorRef<RequestBatch>) (ActorRef<?>) queue;
    localQueue.tell(new RequestBatch(List.of(request(3)), member.ref()));
    assertThat(member.receiveMessage(WAIT).completions().get(0).id()).isEqualTo(3);
  }
}
