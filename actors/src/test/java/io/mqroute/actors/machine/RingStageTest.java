package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.policies.queue.Ring;
import io.mqroute.runtime.SimSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.stream.Materializer;
import org.apache.pekko.stream.javadsl.Sink;
import org.junit.jupiter.api.Test;

/**
 * The ring stage in virtual time, offered to from the driver thread as its queue would: its demand
 * is its free slots (a refused offer is the ring being full), what it takes reaches the server in
 * order, including what was offered before the stream started, what the server is done with comes
 * out downstream, and only a release (the harvest) is the demand for the next offer.
 */
class RingStageTest {
  private static final long HORIZON = 1_000_000_000L;

  /** What reached the server, and how to tell the ring it is done. */
  private record Served(int item, Consumer<Integer> done) {}

  @SuppressWarnings("unchecked")
  @Test
  void itsDemandIsItsFreeSlots() {
    List<Served> server = new ArrayList<>();
    List<Integer> used = new ArrayList<>();
    Ring<Integer>[] ring = new Ring[1];
    Behavior<Void> root =
        Behaviors.setup(
            ctx -> {
              ring[0] =
                  RingStage.<Integer>source(2, (item, done) -> server.add(new Served(item, done)))
                      .to(Sink.foreach(used::add))
                      .run(Materializer.createMaterializer(ctx));
              assertThat(ring[0].offer(1)).as("before the stream started").isTrue();
              return Behaviors.empty();
            });
    try (SimSystem<Void> sim =
        SimSystem.start(
            "ring-stage", ConfigFactory.parseString("pekko.loglevel = WARNING"), root)) {
      Ring<Integer> r = ring[0];
      assertThat(r.offer(2)).isTrue();
      assertThat(r.offer(3)).as("both slots held: ENOSPC").isFalse();
      assertThat(r.held()).isEqualTo(2);
      assertThat(sim.runUntil(HORIZON, () -> server.size() == 2).done()).isTrue();
      assertThat(server).extracting(Served::item).containsExactly(1, 2);
      server.get(1).done().accept(2);
      assertThat(sim.runUntil(HORIZON, () -> used.size() == 1).done()).isTrue();
      assertThat(used).containsExactly(2);
      assertThat(r.offer(3)).as("done is not released: the slot is held until harvest").isFalse();
      r.release();
      assertThat(r.free()).isEqualTo(1);
      assertThat(r.offer(3)).isTrue();
      r.limit(1);
      server.get(0).done().accept(1);
      r.release();
      assertThat(r.offer(4)).as("held 1 of a limit of 1").isFalse();
      r.release();
      assertThat(r.offer(4)).isTrue();
      assertThat(sim.runUntil(HORIZON, () -> server.size() == 4 && used.size() == 2).done())
          .isTrue();
      assertThat(server).extracting(Served::item).containsExactly(1, 2, 3, 4);
      assertThat(used).containsExactly(2, 1);
    }
  }
}
