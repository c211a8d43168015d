package io.mqroute.chaos;

import io.mqroute.actors.machine.Fault;
import io.mqroute.policies.strategy.Durations;
import java.util.Locale;

/**
 * One scripted chaos event, written the way the event log prints it, so a log is also a script:
 *
 * <pre>
 *   at 12ms offline cpu 3              at 20ms online cpu 3
 *   at 5ms eio queue 2 rate 0.5 for 1ms
 *   at 5ms enomem queue 2 rate 1 for 1ms
 *   at 7ms stall queue 1 for 2ms
 *   at 9ms slow queue 0 x10 for 3ms
 *   at 11ms ring-full queue 3 slots 1 for 2ms
 *   at 1ms lose queue 0 count 1        (a deliberately broken queue: the checker must catch it)
 * </pre>
 *
 * @param fault the fault for queue events, null for CPU events
 * @param target the CPU or the queue
 * @param forNanos how long a fault window stays open (0: until the next unmount; every mount starts
 *     with a healthy device, and a window still open at an unmount ends there too)
 */
public record ChaosEvent(long atNanos, Action action, int target, Fault fault, long forNanos) {

  /** What an event does. */
  public enum Action {
    OFFLINE,
    ONLINE,
    FAULT
  }

  public static ChaosEvent offline(long at, int cpu) {
    return new ChaosEvent(at, Action.OFFLINE, cpu, null, 0);
  }

  public static ChaosEvent online(long at, int cpu) {
    return new ChaosEvent(at, Action.ONLINE, cpu, null, 0);
  }

  public static ChaosEvent fault(long at, int queue, Fault fault, long forNanos) {
    return new ChaosEvent(at, Action.FAULT, queue, fault, forNanos);
  }

  /**
   * @throws IllegalArgumentException with a message that names the part that is wrong
   */
  public static ChaosEvent parse(String line) {
    String[] w = line.trim().toLowerCase(Locale.ROOT).split("\\s+");
    if (w.length < 5 || !w[0].equals("at")) {
      throw new IllegalArgumentException(
          "\""
              + line
              + "\": expected \"at TIME offline|online cpu N\" or \"at TIME "
              + "eio|enomem|stall|slow|ring-full|lose queue N ...\"");
    }
    long at = Durations.parseNanos("event time", w[1]);
    String what = w[2];
    switch (what) {
      case "offline", "online" -> {
        expect(line, w, 3, "cpu");
        if (w.length != 5) {
          throw new IllegalArgumentException("\"" + line + "\": nothing may follow \"cpu N\"");
        }
        int cpu = number(line, w[4], "cpu");
        return what.equals("offline") ? offline(at, cpu) : online(at, cpu);
      }
      case "eio", "enomem", "stall", "slow", "ring-full", "lose" -> {
        expect(line, w, 3, "queue");
        int queue = number(line, w[4], "queue");
        double value = 1;
        long forNanos = 0;
        int i = 5;
        switch (what) {
          case "eio", "enomem" -> {
            expect(line, w, i, "rate");
            value = decimal(line, w, i + 1);
            i += 2;
          }
          case "slow" -> {
            if (i >= w.length || !w[i].startsWith("x")) {
              throw new IllegalArgumentException(
                  "\"" + line + "\": expected a factor like x10 after the queue");
            }
            value = decimal(line, new String[] {w[i].substring(1)}, 0);
            i++;
          }
          case "ring-full", "lose" -> {
            String word = what.equals("lose") ? "count" : "slots";
            expect(line, w, i, word);
            value = number(line, i + 1 < w.length ? w[i + 1] : "", word);
            i += 2;
          }
          default -> {}
        }
        if (i < w.length) {
          if (what.equals("lose")) {
            throw new IllegalArgumentException("\"" + line + "\": a lose event takes no \"for\"");
          }
          expect(line, w, i, "for");
          if (i + 2 != w.length) {
            throw new IllegalArgumentException(
                "\"" + line + "\": expected \"for DURATION\" at the end");
          }
          forNanos = Durations.parseNanos("window length", w[i + 1]);
        }
        Fault.Kind kind = faultKind(what);
        if (kind == Fault.Kind.RING_LIMIT && value < 1) {
          throw new IllegalArgumentException(
              "\"" + line + "\": a ring-full storm leaves at least 1 slot");
        }
        if (kind == Fault.Kind.SLOWDOWN && value < 1) {
          throw new IllegalArgumentException("\"" + line + "\": the slowdown factor must be >= 1");
        }
        try {
          return fault(at, queue, new Fault(kind, value), forNanos);
        } catch (IllegalArgumentException e) {
          throw new IllegalArgumentException("\"" + line + "\": " + e.getMessage(), e);
        }
      }
      default ->
          throw new IllegalArgumentException(
              "\""
                  + line
                  + "\": unknown event \""
                  + what
                  + "\" (valid: offline, online, eio, enomem, stall, slow, ring-full, lose)");
    }
  }

  /** The fault a profile's {@code faults} key or an event names (eio, ..., ring-full, lose). */
  static Fault.Kind faultKind(String name) {
    return switch (name) {
      case "eio" -> Fault.Kind.EIO;
      case "enomem" -> Fault.Kind.ENOMEM;
      case "stall" -> Fault.Kind.STALL;
      case "slow" -> Fault.Kind.SLOWDOWN;
      case "ring-full" -> Fault.Kind.RING_LIMIT;
      default -> Fault.Kind.LOSE;
    };
  }

  private static void expect(String line, String[] w, int i, String word) {
    if (i >= w.length || !w[i].equals(word)) {
      throw new IllegalArgumentException(
          "\""
              + line
              + "\": expected \""
              + word
              + "\""
              + (i < w.length ? " where it says \"" + w[i] + "\"" : " at the end"));
    }
  }

  private static int number(String line, String s, String what) {
    try {
      int n = Integer.parseInt(s);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "\"" + line + "\": " + what + " must be a whole number >= 0, got \"" + s + "\"");
  }

  private static double decimal(String line, String[] w, int i) {
    if (i < w.length) {
      try {
        double d = Double.parseDouble(w[i]);
        if (d >= 0 && !Double.isInfinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    throw new IllegalArgumentException(
        "\""
            + line
            + "\": expected a number >= 0"
            + (i < w.length ? ", got \"" + w[i] + "\"" : " at the end"));
  }

  /** The event in the syntax {@link #parse} reads (exact: durations print in whole units). */
  @Override
  public String toString() {
    String at = "at " + Durations.format(atNanos) + " ";
    if (action != Action.FAULT) {
      return at + action.name().toLowerCase(Locale.ROOT) + " cpu " + target;
    }
    String head =
        at
            + switch (fault.kind()) {
              case EIO -> "eio queue " + target + " rate " + plain(fault.value());
              case ENOMEM -> "enomem queue " + target + " rate " + plain(fault.value());
              case STALL -> "stall queue " + target;
              case SLOWDOWN -> "slow queue " + target + " x" + plain(fault.value());
              case RING_LIMIT -> "ring-full queue " + target + " slots " + (long) fault.value();
              case LOSE -> "lose queue " + target + " count " + (long) fault.value();
            };
    return forNanos > 0 ? head + " for " + Durations.format(forNanos) : head;
  }

  private static String plain(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }
}
