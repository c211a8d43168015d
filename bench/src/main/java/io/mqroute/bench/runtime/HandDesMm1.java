package io.mqroute.bench.runtime;

import io.mqroute.runtime.RunDigest;
import io.mqroute.runtime.mm1.Mm1Params;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * The M/M/1 calibration model as a hand-written, single-threaded discrete-event simulation: an
 * event calendar (binary heap ordered by time, then sequence) and a FIFO of arrival times. It draws
 * the same random numbers in the same order as the actor model ({@code io.mqroute.runtime.mm1}), so
 * for the same parameters it must produce the same digest: an independent check of the virtual-time
 * runtime, and the speed baseline it is measured against.
 */
public final class HandDesMm1 {
  private static final int ARRIVAL = 0;
  private static final int DEPARTURE = 1;

  /**
   * What a run produced.
   *
   * @param completed requests completed
   * @param digest RunDigest of (id, sojourn) in completion order, as the actor model computes it
   * @param latencySumNanos sum of sojourn times
   * @param endNanos simulated time of the last completion
   */
  public record Result(long completed, long digest, long latencySumNanos, long endNanos) {
    public double meanSojournNanos() {
      return (double) latencySumNanos / completed;
    }
  }

  private static final class Event implements Comparable<Event> {
    final long time;
    final long sequence;
    final int kind;

    Event(long time, long sequence, int kind) {
      this.time = time;
      this.sequence = sequence;
      this.kind = kind;
    }

    @Override
    public int compareTo(Event other) {
      int byTime = Long.compare(time, other.time);
      return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
    }
  }

  private final Mm1Params params;
  private final SplittableRandom arrivals;
  private final SplittableRandom service;
  private final PriorityQueue<Event> calendar = new PriorityQueue<>();
  private final LongRing inSystem = new LongRing();
  private final RunDigest digest = new RunDigest();
  private long sequence;
  private long now;
  private long arrived;
  private long completed;
  private long latencySum;

  private HandDesMm1(Mm1Params params) {
    this.params = params;
    this.arrivals = params.arrivalRandom();
    this.service = params.serviceRandom();
  }

  /** Simulates {@code params.requests()} requests. */
  public static Result run(Mm1Params params) {
    return new HandDesMm1(params).simulate();
  }

  private Result simulate() {
    schedule(ARRIVAL, Mm1Params.exponentialNanos(arrivals, params.meanInterarrivalNanos()));
    while (completed < params.requests()) {
      Event event = calendar.poll();
      now = event.time;
      if (event.kind == ARRIVAL) {
        onArrival();
      } else {
        onDeparture();
      }
    }
    return new Result(completed, digest.value(), latencySum, now);
  }

  private void onArrival() {
    inSystem.addLast(now);
    if (++arrived < params.requests()) {
      schedule(ARRIVAL, Mm1Params.exponentialNanos(arrivals, params.meanInterarrivalNanos()));
    }
    if (inSystem.size() == 1) {
      startService();
    }
  }

  private void onDeparture() {
    long latency = now - inSystem.removeFirst();
    latencySum += latency;
    digest.add(completed++, latency);
    if (inSystem.size() > 0) {
      startService();
    }
  }

  private void startService() {
    schedule(DEPARTURE, Mm1Params.exponentialNanos(service, params.meanServiceNanos()));
  }

  private void schedule(int kind, long delay) {
    calendar.add(new Event(now + delay, sequence++, kind));
  }

  /** Growable ring buffer of primitive longs (avoids boxing arrival times). */
  private static final class LongRing {
    private long[] items = new long[1024];
    private int head;
    private int size;

    void addLast(long value) {
      if (size == items.length) {
        long[] grown = new long[items.length * 2];
        for (int i = 0; i < size; i++) {
          grown[i] = items[(head + i) % items.length];
        }
        items = grown;
        head = 0;
      }
      items[(head + size++) % items.length] = value;
    }

    long removeFirst() {
      long value = items[head];
      head = (head + 1) % items.length;
      size--;
      return value;
    }

    int size() {
      return size;
    }
  }
}
