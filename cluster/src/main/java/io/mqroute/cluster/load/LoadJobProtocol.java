package io.mqroute.cluster.load;

import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.Status;
import java.util.List;
import java.util.Map;
import org.apache.pekko.actor.typed.ActorRef;

/** Messages of the {@link LoadJob} actor: what it handles and what it answers. */
public final class LoadJobProtocol {
  private LoadJobProtocol() {}

  /** What a load job handles. */
  public interface Command {}

  /** Starts the job; {@code replyTo} gets its {@link Finished} once every request has ended. */
  public record Run(ActorRef<Finished> replyTo) implements Command {}

  /** The job's statistics (window closed), errors by status and how many were abandoned. */
  public record Finished(
      JobStats stats, Map<Status, Long> byStatus, long abandoned, VerifyReport verify) {}

  /**
   * What {@code verify=} found: blocks read back and checked, mismatches, and the first few of them
   * in fio's words (at most 10 per clone).
   */
  public record VerifyReport(long checked, long errors, List<String> first) {
    public static final VerifyReport NONE = new VerifyReport(0, 0, List.of());
  }

  record Completed(Completion completion) implements Command {}

  record CompletedBatch(CompletionBatch batch) implements Command {}

  enum Stop implements Command {
    ISSUE,
    DRAIN,
    RAMP_DONE
  }
}
