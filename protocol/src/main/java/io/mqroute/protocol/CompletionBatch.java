package io.mqroute.protocol;

import java.util.ArrayList;
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
    int bytes = 0;
    for (Completion c : completions) {
      bytes += RequestBatch.wireBytes(c.dataBytes());
    }
    if (bytes > RequestBatch.MAX_WIRE_BYTES) {
      throw new IllegalArgumentException(
          "a batch holds at most " + RequestBatch.MAX_WIRE_BYTES + " wire bytes, was " + bytes);
    }
  }

  /**
   * {@code completions} (any number) as batches within {@link RequestBatch#MAX_SIZE} and {@link
   * RequestBatch#MAX_WIRE_BYTES}, in order.
   */
  public static List<CompletionBatch> split(List<Completion> completions) {
    List<CompletionBatch> out = new ArrayList<>();
    int from = 0;
    int bytes = 0;
    for (int i = 0; i < completions.size(); i++) {
      int w = RequestBatch.wireBytes(completions.get(i).dataBytes());
      if (i > from
          && (i - from == RequestBatch.MAX_SIZE || bytes + w > RequestBatch.MAX_WIRE_BYTES)) {
        out.add(new CompletionBatch(completions.subList(from, i)));
        from = i;
        bytes = 0;
      }
      bytes += w;
    }
    if (from < completions.size()) {
      out.add(new CompletionBatch(completions.subList(from, completions.size())));
    }
    return out;
  }
}
