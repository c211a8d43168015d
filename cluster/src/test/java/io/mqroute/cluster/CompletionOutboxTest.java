package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.cluster.link.NodeLink;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import io.mqroute.protocol.Status;
import java.util.ArrayList;
import java.util.List;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.ActorRef;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** What a device queue or a host holds for its next Flush, and when it leaves. */
class CompletionOutboxTest {
  private static final ActorTestKit KIT = ActorTestKit.create();

  @AfterAll
  static void stop() {
    KIT.shutdownTestKit();
  }

  private record Sent(ActorRef<?> to, Object message) {}

  private final List<Sent> sent = new ArrayList<>();
  private int flushes;
  private final NodeLink.Tell wire =
      new NodeLink.Tell() {
        @Override
        public <T> void tell(ActorRef<T> to, T message) {
          sent.add(new Sent(to, message));
        }
      };
  private final CompletionOutbox outbox =
      new CompletionOutbox(wire, () -> flushes++, RequestTrace.DEV_OUT);

  private static Completion ok(long id) {
    return new Completion(id, Status.OK, 0, 0, 0, 0);
  }

  @Test
  void oneBatchPerAddressAtTheFlushAndOneFlushAskedFor() {
    ActorRef<CompletionBatch> a = KIT.<CompletionBatch>createTestProbe().ref();
    ActorRef<CompletionBatch> b = KIT.<CompletionBatch>createTestProbe().ref();
    outbox.add(a, ok(1));
    outbox.add(b, ok(2));
    outbox.add(a, ok(3));
    assertThat(flushes).isEqualTo(1);
    assertThat(sent).isEmpty();
    outbox.flush();
    assertThat(sent).hasSize(2);
    assertThat(sent)
        .contains(
            new Sent(a, new CompletionBatch(List.of(ok(1), ok(3)))),
            new Sent(b, new CompletionBatch(List.of(ok(2)))));
    outbox.flush();
    assertThat(sent).as("nothing twice").hasSize(2);
    outbox.add(b, ok(4));
    assertThat(flushes).as("the next completion asks again").isEqualTo(2);
  }

  @Test
  void aFullListLeavesAtOnce() {
    ActorRef<CompletionBatch> a = KIT.<CompletionBatch>createTestProbe().ref();
    for (int i = 0; i < RequestBatch.MAX_SIZE; i++) {
      outbox.add(a, ok(i));
    }
    assertThat(sent).hasSize(1);
    assertThat(((CompletionBatch) sent.get(0).message()).completions())
        .hasSize(RequestBatch.MAX_SIZE);
    outbox.flush();
    assertThat(sent).hasSize(1);
  }
}
