package io.mqroute.protocol.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.protocol.Completion;
import io.mqroute.protocol.QueueDraining;
import io.mqroute.protocol.Request;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.testkit.typed.javadsl.TestProbe;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The serializer as Pekko uses it: bound by reference.conf, with typed ActorRefs resolved. */
class KryoSerializerTest {
  private static final ActorTestKit testKit = ActorTestKit.create();

  @AfterAll
  static void cleanup() {
    testKit.shutdownTestKit();
  }

  private static Serialization serialization() {
    return SerializationExtension.get(Adapter.toClassic(testKit.system()));
  }

  @Test
  void referenceConfBindsEveryMessageToKryo() throws Exception {
    for (Class<?> c : WireRegistry.messageClasses()) {
      Serializer s = serialization().serializerFor(c);
      assertThat(s).as(c.getSimpleName()).isInstanceOf(KryoSerializer.class);
      assertThat(s.identifier()).isEqualTo(7301);
    }
  }

  @Test
  void aRequestWithAReplyAddressRoundTrips() {
    TestProbe<Completion> probe = testKit.createTestProbe();
    Request r = WireSamples.REQUEST.withReplyTo(probe.ref());
    Serializer s = serialization().findSerializerFor(r);
    Request back = (Request) s.fromBinary(s.toBinary(r));
    assertThat(back).isEqualTo(r);
    back.replyTo().tell(WireSamples.COMPLETION);
    probe.expectMessage(WireSamples.COMPLETION);
  }

  @Test
  void moreReplyAddressesThanTheCacheHoldsEachRoundTripToTheirOwnActor() {
    Serializer s = serialization().findSerializerFor(WireSamples.REQUEST);
    java.util.List<TestProbe<Completion>> probes = new java.util.ArrayList<>();
    for (int i = 0; i < ActorRefSerializer.CACHE + 44; i++) {
      probes.add(testKit.createTestProbe());
    }
    // twice over: the second pass reads every path again, after the cache was cleared on the way
    for (int pass = 0; pass < 2; pass++) {
      for (TestProbe<Completion> p : probes) {
        Request r = WireSamples.REQUEST.withReplyTo(p.ref());
        Request back = (Request) s.fromBinary(s.toBinary(r));
        assertThat(back.replyTo()).isEqualTo(p.ref());
        back.replyTo().tell(WireSamples.COMPLETION);
      }
    }
    for (TestProbe<Completion> p : probes) {
      p.expectMessage(WireSamples.COMPLETION);
      p.expectMessage(WireSamples.COMPLETION);
    }
  }

  @Test
  void aQueueDrainingAnnouncementKeepsItsQueueRef() {
    TestProbe<Request> queue = testKit.createTestProbe();
    QueueDraining d = new QueueDraining(queue.ref(), 42L);
    Serializer s = serialization().findSerializerFor(d);
    QueueDraining back = (QueueDraining) s.fromBinary(s.toBinary(d));
    assertThat(back).isEqualTo(d);
    back.queue().tell(WireSamples.REQUEST);
    queue.expectMessage(WireSamples.REQUEST);
  }

  @Test
  void verifiedByPekkosSerializationTestKit() {
    for (var samples : WireSamples.BY_CLASS.values()) {
      for (var m : samples) {
        testKit.serializationTestKit().verifySerialization(m, true);
      }
    }
  }

  @Test
  void nonMessagesAreRefused() throws Exception {
    KryoSerializer s = (KryoSerializer) serialization().serializerFor(Request.class);
    assertThatThrownBy(() -> s.toBinary("a string"))
        .hasMessageContaining("not an mqroute WireMessage");
  }
}
