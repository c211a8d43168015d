package io.mqroute.protocol;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;

/**
 * The one rule both batch messages follow: at most {@link RequestBatch#MAX_SIZE} elements and
 * {@link RequestBatch#MAX_WIRE_BYTES} of estimated wire size ({@link RequestBatch#wireBytes} each).
 */
final class BatchBudget {
  private BatchBudget() {}

  /** Refuses a batch over the byte budget (the count is checked by the caller's message). */
  static <E> void check(List<E> elements, ToIntFunction<E> dataBytes) {
    int bytes = 0;
    for (E e : elements) {
      bytes += RequestBatch.wireBytes(dataBytes.applyAsInt(e));
    }
    if (bytes > RequestBatch.MAX_WIRE_BYTES) {
      throw new IllegalArgumentException(
          "a batch holds at most " + RequestBatch.MAX_WIRE_BYTES + " wire bytes, was " + bytes);
    }
  }

  /** {@code elements} (any number) cut into batches within both limits, in order. */
  static <E, B> List<B> split(
      List<E> elements, ToIntFunction<E> dataBytes, Function<List<E>, B> batch) {
    List<B> out = new ArrayList<>();
    int from = 0;
    int bytes = 0;
    for (int i = 0; i < elements.size(); i++) {
      int w = RequestBatch.wireBytes(dataBytes.applyAsInt(elements.get(i)));
      if (i > from
          && (i - from == RequestBatch.MAX_SIZE || bytes + w > RequestBatch.MAX_WIRE_BYTES)) {
        out.add(batch.apply(elements.subList(from, i)));
        from = i;
        bytes = 0;
      }
      bytes += w;
    }
    if (from < elements.size()) {
      out.add(batch.apply(elements.subList(from, elements.size())));
    }
    return out;
  }
}
