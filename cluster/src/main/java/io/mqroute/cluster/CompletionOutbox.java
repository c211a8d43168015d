package io.mqroute.cluster;

import io.mqroute.cluster.link.NodeLink;
import io.mqroute.protocol.Completion;
import io.mqroute.protocol.CompletionBatch;
import io.mqroute.protocol.RequestBatch;
import io.mqroute.protocol.RequestTrace;
import java.util.ArrayList;
import java.util.HashMap;
import org.apache.pekko.actor.typed.ActorRef;

/**
 * Completions waiting for their owner's next self-sent {@code Flush}, one list per batch reply
 * address (a router for a device queue, a batch client for a host): what one mailbox run ends
 * leaves as one {@link CompletionBatch} per address, and a list that reaches {@link
 * RequestBatch#MAX_SIZE} leaves at once. Owned by one actor; not thread-safe.
 */
final class CompletionOutbox {
  private final HashMap<ActorRef<CompletionBatch>, ArrayList<Completion>> lists = new HashMap<>();
  private final NodeLink.Tell wire;
  private final Runnable requestFlush;
  private final int traceMark;
  private boolean flushPending;

  /**
   * @param requestFlush sends the owner its {@code Flush}; called once per flush, at the first
   *     completion after the last one
   * @param traceMark the {@link RequestTrace} stage marked as each completion leaves
   */
  CompletionOutbox(NodeLink.Tell wire, Runnable requestFlush, int traceMark) {
    this.wire = wire;
    this.requestFlush = requestFlush;
    this.traceMark = traceMark;
  }

  void add(ActorRef<CompletionBatch> to, Completion c) {
    ArrayList<Completion> list = lists.computeIfAbsent(to, k -> new ArrayList<>());
    list.add(c);
    if (list.size() == RequestBatch.MAX_SIZE) {
      send(to, list);
    } else if (!flushPending) {
      flushPending = true;
      requestFlush.run();
    }
  }

  /** The owner's {@code Flush}: everything waiting leaves. */
  void flush() {
    flushPending = false;
    lists.forEach(this::send);
    // every list is empty now, and the addresses come and go: keep none
    lists.clear();
  }

  private void send(ActorRef<CompletionBatch> to, ArrayList<Completion> list) {
    if (list.isEmpty()) {
      return;
    }
    if (RequestTrace.ON) {
      list.forEach(c -> RequestTrace.mark(traceMark, c.submitNanos()));
    }
    CompletionBatch.split(list).forEach(b -> wire.tell(to, b));
    list.clear();
  }
}
