package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import java.time.Duration;
import java.util.Arrays;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.serialization.JSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Frames that a node cannot accept (garbage, an unregistered Kryo id, more than the 64 KiB message
 * limit, trailing bytes, a serializer id it does not know) are logged and dropped by the receiving
 * node, one by one: the association stays up and the valid messages sent between them and after
 * them arrive, in order.
 */
@Tag("integration")
class MalformedFrameTest {
  private static final Duration WAIT = Duration.ofSeconds(20);
  private ActorSystem<Void> receiver;
  private ActorSystem<Void> sender;

  /** ArteryFramingTest's node settings over plain tcp: these frames must reach Artery's framing. */
  private static Config remote(String extra) {
    return ArteryFramingTest.remote(
        ConfigFactory.parseString("pekko.remote.artery.transport = tcp\n" + extra));
  }

  @AfterEach
  void shutDown() {
    for (ActorSystem<Void> s : Arrays.asList(sender, receiver)) {
      if (s != null) {
        s.terminate();
      }
    }
    for (ActorSystem<Void> s : Arrays.asList(sender, receiver)) {
      if (s != null) {
        ClusterNode.awaitTermination(s, WAIT);
      }
    }
  }

  /** A class the receiver has no binding for, sent with a serializer id it does not know. */
  public record Stranger(int x) {}

  /** Serializer id 9999, known to the sender only. */
  public static final class StrangerSerializer extends JSerializer {
    @Override
    public int identifier() {
      return 9999;
    }

    @Override
    public boolean includeManifest() {
      return false;
    }

    @Override
    public byte[] toBinary(Object o) {
      return new byte[] {1, 2, 3};
    }

    @Override
    public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
      return new Stranger(bytes.length);
    }
  }

  @Test
  void malformedFramesAreDroppedAndTheAssociationStaysUp() {
    receiver = ActorSystem.create(Behaviors.empty(), "mqroute", remote(""));
    sender =
        ActorSystem.create(
            Behaviors.empty(),
            "mqroute",
            remote(
                """
        pekko.actor.serializers.mqroute-kryo = "io.mqroute.cluster.GarbageSerializer"
        pekko.actor.serializers.stranger = "io.mqroute.cluster.MalformedFrameTest$StrangerSerializer"
        pekko.actor.serialization-bindings { "io.mqroute.cluster.MalformedFrameTest$Stranger" = stranger }
        """));
    ActorTestKit receiverKit = ActorTestKit.create(receiver);
    ActorTestKit senderKit = ActorTestKit.create(sender);
    TestProbe<Request> inbox = receiverKit.createTestProbe();
    TestProbe<Completion> replies = senderKit.createTestProbe();
    ActorRef<Request> remoteInbox =
        ActorRefResolver.get(sender)
            .resolveActorRef(ActorRefResolver.get(receiver).toSerializationFormat(inbox.ref()));

    long[] fileIds = {
      1,
      GarbageSerializer.GARBAGE,
      2,
      GarbageSerializer.UNKNOWN_ID,
      3,
      GarbageSerializer.OVERSIZED,
      4,
      GarbageSerializer.TRAILING,
      5
    };
    @SuppressWarnings("unchecked")
    ActorRef<Object> untyped = (ActorRef<Object>) (ActorRef<?>) remoteInbox;
    for (int i = 0; i < fileIds.length; i++) {
      remoteInbox.tell(new Request(i, Op.READ, fileIds[i], 0, 4096, true, 0, 0, replies.ref()));
      if (i == 4) {
        untyped.tell(new Stranger(7)); // serializer id 9999: the receiver has no such serializer
      }
    }
    for (long expected = 1; expected <= 5; expected++) {
      Request got = inbox.receiveMessage(WAIT);
      assertThat(got.fileId())
          .as("valid requests arrive in order, the malformed ones never")
          .isEqualTo(expected);
      // the reply address crossed too: answer over the same association, the other way
      got.replyTo().tell(new Completion(got.id(), Status.OK, 0, 0, 0, 0));
      assertThat(replies.receiveMessage(WAIT).id()).isEqualTo(got.id());
    }
    inbox.expectNoMessage(Duration.ofMillis(200));
  }
}
