package io.mqroute.actors.machine;

import io.mqroute.protocol.Op;
import java.util.HashSet;
import java.util.Set;

/**
 * The system calls in flight of a job whose I/Os are calls ({@link IoCalls} other than DATA): per
 * in-flight slot, the call and which of its waited-for requests the thread is waiting for; and the
 * background requests a call sent without waiting (RELEASE), which hold no slot. Not thread-safe:
 * one job's state.
 */
final class CallSlots {
  /**
   * The slot number in the request id of a request no slot waits for (ids carry 16 bits of slot,
   * and a job has at most {@link JobPlan#MAX_IN_FLIGHT} - 1 slots).
   */
  static final int BACKGROUND = JobPlan.MAX_IN_FLIGHT - 1;

  private final IoCalls.Call[] call;
  private final int[] step;
  private final long[] offset;
  private final long[] ios;
  private final Set<Long> background = new HashSet<>();

  CallSlots(int slots) {
    this.call = new IoCalls.Call[slots];
    this.step = new int[slots];
    this.offset = new long[slots];
    this.ios = new long[slots];
  }

  /**
   * A call starts in {@code slot}: its first request is next; {@code ios} fio I/Os end with its
   * timed part (a file's fake I/Os, or the one I/O of a falloc or ftruncate call).
   */
  void start(int slot, IoCalls.Call c, long at, long fioIos) {
    call[slot] = c;
    step[slot] = 0;
    offset[slot] = at;
    ios[slot] = fioIos;
  }

  IoCalls.Call call(int slot) {
    return call[slot];
  }

  /** The request the slot's thread sends (or waits for) now. */
  Op op(int slot) {
    return call[slot].waited(step[slot]);
  }

  long offset(int slot) {
    return offset[slot];
  }

  long ios(int slot) {
    return ios[slot];
  }

  /** True while the slot waits inside the timed system call (what fio measures). */
  boolean timed(int slot) {
    return call[slot] != null && step[slot] < call[slot].timed().size();
  }

  /** The slot's request ended: true if it was the last timed one. */
  boolean advance(int slot) {
    step[slot]++;
    return step[slot] == call[slot].timed().size();
  }

  /** True when the thread has more to wait for in this call (the close after a create). */
  boolean moreWaited(int slot) {
    return step[slot] < call[slot].waitedCount();
  }

  /** The call is over (its requests ended, or it failed): the slot is free. */
  void end(int slot) {
    call[slot] = null;
  }

  void sentInBackground(long seq) {
    background.add(seq);
  }

  /** A background request ended: false if none with this sequence number was outstanding. */
  boolean backgroundEnded(long seq) {
    return background.remove(seq);
  }

  boolean backgroundIdle() {
    return background.isEmpty();
  }

  /** The sequence numbers of the background requests still outstanding. */
  Set<Long> outstandingBackground() {
    return Set.copyOf(background);
  }
}
