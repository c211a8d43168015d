package io.mqroute.protocol;

import java.util.List;

/**
 * Completions that cross the network together, the answer to {@link RequestBatch}es: a device queue
 * sends what completed since its last send to one router as one message.
 *
 * @param completions 1..{@value RequestBatch#MAX_SIZE} completions
 */
public record CompletionBatch(List<Completion> completions) implements WireMessage {
  public CompletionBatch {
    completions = List.copyOf(completions);
    if (completions.isEmpty() || completions.size() > RequestBatch.MAX_SIZE) {
      throw new IllegalArgumentException(
          "a batch holds 1.." + RequestBatch.MAX_SIZE + " completions, was " + completions.size());
    }
    BatchBudget.check(completions, Completion::dataBytes);
  }

  /**
   * {@code completions} (any number) as batches within {@link RequestBatch#MAX_SIZE} and {@link
   * RequestBatch#MAX_WIRE_BYTES}, in order.
   */
  public static List<CompletionBatch> split(List<Completion> completions) {
    return BatchBudget.split(completions, Completion::dataBytes, CompletionBatch::new);
  }
}
