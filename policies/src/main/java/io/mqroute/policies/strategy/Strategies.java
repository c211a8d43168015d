package io.mqroute.policies.strategy;

import io.mqroute.policies.NameSuggester;
import io.mqroute.policies.Params;
import java.util.List;
import java.util.Map;

/**
 * Parses strategy specs as experiment files write them: {@code delayed-retry(500us)}, {@code
 * refill-on-completion}, {@code fail}, {@code requeue}, {@code fifo}, {@code lifo-per-batch},
 * {@code pool(4)}, {@code waiter-cpu}, {@code completing-cpu}, {@code global(12)}, {@code
 * per-queue}. Each result's {@code spec()} / {@code toString()} parses back to an equal one.
 */
public final class Strategies {

  public static final List<String> FULL_RING = List.of("delayed-retry", "refill-on-completion");
  public static final List<String> ENQUEUE_ERROR = List.of("fail", "requeue");
  public static final List<String> DISPATCH_ORDER = List.of("fifo", "lifo-per-batch", "pool");
  public static final List<String> WAKE = List.of("waiter-cpu", "completing-cpu");
  public static final List<String> ADMISSION = List.of("global", "per-queue");

  private Strategies() {}

  /**
   * {@code delayed-retry} (1 ms), {@code delayed-retry(<duration>)} or {@code
   * refill-on-completion}.
   */
  public static FullRingStrategy fullRing(String text) {
    Spec s = Spec.parse("full-ring", text);
    return switch (s.name()) {
      case "delayed-retry" ->
          FullRingStrategy.delayedRetry(
              s.arg() == null
                  ? DelayedRetry.DEFAULT_DELAY_NANOS
                  : Durations.parseNanos("delayed-retry delay", s.arg()));
      case "refill-on-completion" -> {
        s.noArg("full-ring");
        yield FullRingStrategy.refillOnCompletion();
      }
      default -> throw unknown("full-ring strategy", s.name(), FULL_RING);
    };
  }

  /** {@code fail} or {@code requeue}. */
  public static EnqueueErrorPolicy enqueueError(String text) {
    Spec s = Spec.parse("enqueue-error", text).noArg("enqueue-error");
    return switch (s.name()) {
      case "fail" -> EnqueueErrorPolicy.FAIL;
      case "requeue" -> EnqueueErrorPolicy.REQUEUE;
      default -> throw unknown("enqueue-error policy", s.name(), ENQUEUE_ERROR);
    };
  }

  /** {@code fifo}, {@code lifo-per-batch} or {@code pool(<workers>)}. */
  public static DispatchOrder dispatchOrder(String text) {
    Spec s = Spec.parse("dispatch", text);
    return switch (s.name()) {
      case "fifo" -> {
        s.noArg("dispatch");
        yield DispatchOrder.fifo();
      }
      case "lifo-per-batch" -> {
        s.noArg("dispatch");
        yield DispatchOrder.lifoPerBatch();
      }
      case "pool" -> {
        if (s.arg() == null) {
          throw new IllegalArgumentException(
              "dispatch \"pool\" needs a worker count, e.g. pool(4)"
                  + " (pool workers must be "
                  + Params.range(1, DispatchOrder.MAX_WORKERS)
                  + ")");
        }
        yield DispatchOrder.pool(
            Params.of("dispatch pool", Map.of("workers", s.arg()), "workers")
                .intValue("workers", 1, 1, DispatchOrder.MAX_WORKERS));
      }
      default -> throw unknown("dispatch order", s.name(), DISPATCH_ORDER);
    };
  }

  /** {@code waiter-cpu} or {@code completing-cpu}. */
  public static WakePolicy wake(String text) {
    Spec s = Spec.parse("wake", text).noArg("wake");
    return switch (s.name()) {
      case "waiter-cpu" -> WakePolicy.WAITER_CPU;
      case "completing-cpu" -> WakePolicy.COMPLETING_CPU;
      default -> throw unknown("wake policy", s.name(), WAKE);
    };
  }

  /**
   * {@code global}, {@code global(<max_background>)}, {@code per-queue} or {@code
   * per-queue(<max_background>)}; the congestion threshold is {@code max * 3 / 4}.
   */
  public static BackgroundAdmission backgroundAdmission(String text, int queues) {
    Spec s = Spec.parse("background admission", text);
    BackgroundAdmission.Mode mode =
        switch (s.name()) {
          case "global" -> BackgroundAdmission.Mode.GLOBAL;
          case "per-queue" -> BackgroundAdmission.Mode.PER_QUEUE;
          default -> throw unknown("background admission", s.name(), ADMISSION);
        };
    BackgroundAdmission.Builder b = BackgroundAdmission.newBuilder().mode(mode).queues(queues);
    if (s.arg() != null) {
      b.maxBackground(
          Params.of("background admission", Map.of("max-background", s.arg()), "max-background")
              .intValue("max-background", BackgroundAdmission.DEFAULT_MAX_BACKGROUND, 1, 65535));
    }
    return b.build();
  }

  private static IllegalArgumentException unknown(String kind, String name, List<String> valid) {
    return new IllegalArgumentException(NameSuggester.unknown(kind, name, valid));
  }
}
