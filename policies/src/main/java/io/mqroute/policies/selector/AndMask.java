package io.mqroute.policies.selector;

import io.mqroute.policies.topology.QueueMask;

/** A live, reusable intersection of two masks: rebinding costs two field writes, not an array. */
final class AndMask implements QueueMask {

  private QueueMask a;
  private QueueMask b;

  AndMask bind(QueueMask first, QueueMask second) {
    a = first;
    b = second;
    return this;
  }

  @Override
  public int capacity() {
    return Math.min(a.capacity(), b.capacity());
  }

  @Override
  public int wordCount() {
    return Math.min(a.wordCount(), b.wordCount());
  }

  @Override
  public long word(int index) {
    return a.word(index) & b.word(index);
  }
}
