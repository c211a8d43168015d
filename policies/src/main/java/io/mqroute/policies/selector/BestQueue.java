package io.mqroute.policies.selector;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.QueueMask;

/** Models {@code fuse_uring_best_queue} (reduced-queue series v3 4/6): power of two choices. */
final class BestQueue {

  private BestQueue() {}

  /**
   * Two independent uniform draws over {@code mask} (with replacement, no redraw when both hit the
   * same queue); the less loaded wins and a tie goes to the second draw. A mask of weight 1 answers
   * without drawing, weight 0 answers {@link QueueSelector#NONE}.
   */
  static int select(RoutingView view, QueueMask mask, RandomSource random) {
    int w = mask.weight();
    if (w == 0) {
      return QueueSelector.NONE;
    }
    if (w == 1) {
      return mask.first();
    }
    int q1 = mask.nth(random.nextInt(w));
    int q2 = mask.nth(random.nextInt(w));
    if (q2 == q1) {
      return q1;
    }
    // the kernel WARNs and gives up on a NULL queue pointer; a stale mask is the only cause
    if (!view.registered(q1) || !view.registered(q2)) {
      return QueueSelector.NONE;
    }
    return view.nrReqs(q1) < view.nrReqs(q2) ? q1 : q2;
  }

  /**
   * The series' last step: the global pick when it is at most {@code threshold} long, else the
   * node's pick when there is one; {@link QueueSelector#NONE} when there is no global pick ("might
   * happen during tear down").
   */
  static int globalOrNode(RoutingView view, int bestGlobal, int bestNuma, int threshold) {
    if (bestGlobal == QueueSelector.NONE) {
      return QueueSelector.NONE;
    }
    if (view.nrReqs(bestGlobal) <= threshold) {
      return bestGlobal;
    }
    return bestNuma != QueueSelector.NONE ? bestNuma : bestGlobal;
  }
}
