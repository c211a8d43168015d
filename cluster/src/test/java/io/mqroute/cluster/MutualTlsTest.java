package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process without the cluster's key cannot deliver a single message to a node: not with keys of
 * its own (the node does not trust its certificate), not over plain tcp. A member can.
 */
@Tag("integration")
class MutualTlsTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private ActorSystem<Void> node;
  private ActorSystem<Void> other;

  @AfterEach
  void shutDown() {
    for (ActorSystem<Void> s : Arrays.asList(other, node)) {
      if (s != null) {
        s.terminate();
        ClusterNode.awaitTermination(s, WAIT);
      }
    }
  }

  /** Sends 20 requests from {@code other} to a probe on {@code node}. */
  private static TestProbe<Request> send(ActorSystem<Void> node, ActorSystem<Void> other) {
    TestProbe<Request> inbox = ActorTestKit.create(node).createTestProbe();
    TestProbe<Completion> replies = ActorTestKit.create(other).createTestProbe();
    ActorRef<Request> remote =
        ActorRefResolver.get(other)
            .resolveActorRef(ActorRefResolver.get(node).toSerializationFormat(inbox.ref()));
    for (int i = 0; i < 20; i++) {
      remote.tell(new Request(i, Op.WRITE, 42, 0, 4096, true, 0, 0, replies.ref()));
    }
    return inbox;
  }

  @Test
  void aMemberDelivers() {
    node = ActorSystem.create(Behaviors.empty(), "mqroute", ArteryFramingTest.remote());
    other = ActorSystem.create(Behaviors.empty(), "mqroute", ArteryFramingTest.remote());
    TestProbe<Request> inbox = send(node, other);
    for (int i = 0; i < 20; i++) {
      assertThat(inbox.receiveMessage(WAIT).id()).isEqualTo(i);
    }
  }

  @Test
  void aProcessWithOtherKeysDeliversNothing(@TempDir Path dir) throws IOException {
    Path strangerKeys = Files.createDirectories(dir).resolve("stranger");
    ClusterKeys.create(strangerKeys);
    node = ActorSystem.create(Behaviors.empty(), "mqroute", ArteryFramingTest.remote());
    other =
        ActorSystem.create(
            Behaviors.empty(),
            "mqroute",
            ArteryFramingTest.remote(ClusterKeys.artery(strangerKeys)));
    // the handshake fails both ways (neither trusts the other's certificate) and keeps failing
    send(node, other).expectNoMessage(Duration.ofSeconds(3));
  }

  @Test
  void aPlainTcpProcessDeliversNothing() {
    node = ActorSystem.create(Behaviors.empty(), "mqroute", ArteryFramingTest.remote());
    other =
        ActorSystem.create(
            Behaviors.empty(),
            "mqroute",
            ArteryFramingTest.remote(
                ConfigFactory.parseString("pekko.remote.artery.transport = tcp")));
    send(node, other).expectNoMessage(Duration.ofSeconds(3));
  }
}
