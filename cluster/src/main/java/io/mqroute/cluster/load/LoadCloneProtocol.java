package io.mqroute.cluster.load;

import io.mqroute.actors.machine.MachineProtocol;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Status;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of a {@link LoadClone} (one fio job clone of {@code mqroute load}). */
public final class LoadCloneProtocol {
  private LoadCloneProtocol() {}

  /** What a load clone handles. */
  public interface Command {}

  /** Starts the clone; {@code replyTo} gets its {@link Finished} once every request has ended. */
  public record Run(ActorRef<Finished> replyTo) implements Command {}

  /**
   * The clone's statistics (window closed), ends by status, requests abandoned after a stall,
   * exactly-once breaches and what verify found.
   */
  public record Finished(
      JobStats stats,
      Map<Status, Long> byStatus,
      long abandoned,
      List<String> violations,
      VerifyReport verify) {}

  /**
   * What {@code verify=} found: blocks read back and checked, mismatches, and the first few of them
   * in fio's words (at most {@value LoadData#FIRST_ERRORS} per clone).
   */
  public record VerifyReport(long checked, long errors, List<String> first) {
    static final VerifyReport NONE = new VerifyReport(0, 0, List.of());
  }

  /** What the job tells its "machine" (its end, its stall, a broken exactly-once check). */
  record FromJob(MachineProtocol.Command message) implements Command {}

  record Abandoned(long count) implements Command {}

  record Statuses(Map<Status, Long> byStatus) implements Command {}
}
