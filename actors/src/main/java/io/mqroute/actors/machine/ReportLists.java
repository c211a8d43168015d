package io.mqroute.actors.machine;

import java.util.List;
import java.util.function.Function;

/**
 * Lists in stall, lost-request and unmount reports: at most {@link #MAX_ITEMS} items, then "... and
 * K more", so that no report line grows with the iodepth or the number of queues (a stall of 65,535
 * requests printed a 770 KB line).
 */
final class ReportLists {
  static final int MAX_ITEMS = 16;

  private ReportLists() {}

  /** {@code [a, b, c]} as {@link List#toString}, or {@code [a, ..., p, ... and 9 more]}. */
  static String capped(List<?> items) {
    return capped(items, String::valueOf);
  }

  static <T> String capped(List<T> items, Function<? super T, String> show) {
    StringBuilder sb = new StringBuilder("[");
    int n = Math.min(items.size(), MAX_ITEMS);
    for (int i = 0; i < n; i++) {
      sb.append(i > 0 ? ", " : "").append(show.apply(items.get(i)));
    }
    if (items.size() > n) {
      sb.append(", ... and ").append(items.size() - n).append(" more");
    }
    return sb.append(']').toString();
  }
}
