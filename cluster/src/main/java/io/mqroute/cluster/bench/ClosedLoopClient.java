package io.mqroute.cluster.bench;

import io.mqroute.cluster.bench.ClosedLoopClientProtocol.Command;
import io.mqroute.cluster.bench.ClosedLoopClientProtocol.Done;
import io.mqroute.cluster.bench.ClosedLoopClientProtocol.Report;
import io.mqroute.cluster.bench.ClosedLoopClientProtocol.Start;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.Op;
import io.mqroute.protocol.Request;
import io.mqroute.protocol.Status;
import io.mqroute.runtime.NanoClock;
import java.util.SplittableRandom;
import org.HdrHistogram.Histogram;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * A closed-loop benchmark client: keeps {@code window} 4 KiB random reads in flight to {@code
 * target} until {@code total} have completed, then reports. One actor, no timers: what it measures
 * is the path's throughput.
 */
public final class ClosedLoopClient {

  private ClosedLoopClient() {}

  /**
   * @param target where requests go (a router's entry, or a queue)
   * @param total requests in the run
   * @param window requests in flight at once
   * @param fileBytes the file's size: offsets are random 4 KiB blocks below it
   */
  public static Behavior<Command> create(
      ActorRef<Request> target, long total, int window, long fileBytes) {
    return Behaviors.setup(
        ctx -> {
          ActorRef<Completion> self = ctx.messageAdapter(Completion.class, Done::new);
          SplittableRandom random = new SplittableRandom(7);
          long blocks = Math.max(1, fileBytes / 4096);
          Histogram latency = new Histogram(3);
          long[] c = new long[4]; // sent, ok, errors, start
          @SuppressWarnings("unchecked")
          ActorRef<Report>[] replyTo = new ActorRef[1];
          Runnable send =
              () -> {
                long id = c[0]++;
                target.tell(
                    new Request(
                        id,
                        Op.READ,
                        0,
                        4096L * random.nextLong(blocks),
                        4096,
                        true,
                        (int) (id & 63),
                        NanoClock.SYSTEM.nanoTime(),
                        self));
              };
          return Behaviors.receive(Command.class)
              .onMessage(
                  Start.class,
                  s -> {
                    replyTo[0] = s.replyTo();
                    c[3] = NanoClock.SYSTEM.nanoTime();
                    for (int i = 0; i < window && c[0] < total; i++) {
                      send.run();
                    }
                    return Behaviors.same();
                  })
              .onMessage(
                  Done.class,
                  d -> {
                    long now = NanoClock.SYSTEM.nanoTime();
                    if (d.completion().status() == Status.OK) {
                      c[1]++;
                      latency.recordValue(Math.max(0, now - d.completion().submitNanos()));
                    } else {
                      c[2]++;
                    }
                    if (c[0] < total) {
                      send.run();
                    } else if (c[1] + c[2] == total) {
                      replyTo[0].tell(new Report(c[1], c[2], now - c[3], latency));
                      return Behaviors.stopped();
                    }
                    return Behaviors.same();
                  })
              .build();
        });
  }
}
