package io.mqroute.actors.device;

import io.mqroute.policies.strategy.Durations;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Builds a {@link Device} from its spec string: {@code fixed(40us)}, {@code exponential(40us)},
 * {@code lognormal(30us, 0.5)}, {@code empirical(path/to/ns.csv)}, {@code hdd(8.5ms, 7200, 180MB/s,
 * 1ms)}, {@code dpu(2.5us, 40us, 0.25)}, {@code cpu(20us)}, {@code null}.
 */
public final class Devices {
  public static final List<String> KINDS =
      List.of("fixed", "exponential", "lognormal", "empirical", "hdd", "dpu", "cpu", "null");

  private Devices() {}

  /**
   * @param baseDir where a relative {@code empirical} path is resolved (the experiment file's
   *     directory)
   * @throws IllegalArgumentException with a message naming the spec and what was expected
   */
  public static Device parse(String spec, Path baseDir) {
    String s = spec.strip();
    int open = s.indexOf('(');
    String kind = (open < 0 ? s : s.substring(0, open)).strip().toLowerCase(Locale.ROOT);
    List<String> args = new ArrayList<>();
    if (open >= 0) {
      if (!s.endsWith(")")) {
        throw new IllegalArgumentException("device \"" + spec + "\": missing ')'");
      }
      String inner = s.substring(open + 1, s.length() - 1).strip();
      if (!inner.isEmpty()) {
        for (String a : inner.split(",")) {
          args.add(a.strip());
        }
      }
    }
    try {
      return switch (kind) {
        case "fixed" -> new FixedDevice(nanos(spec, arg(args, 0, 1, spec)));
        case "exponential" -> new ExponentialDevice(nanos(spec, arg(args, 0, 1, spec)));
        case "lognormal" ->
            new LognormalDevice(
                nanos(spec, arg(args, 0, 2, spec)), Double.parseDouble(arg(args, 1, 2, spec)));
        case "empirical" -> EmpiricalDevice.load(baseDir.resolve(arg(args, 0, 1, spec)));
        case "hdd" ->
            new HddDevice(
                nanos(spec, arg(args, 0, 4, spec)),
                Integer.parseInt(arg(args, 1, 4, spec)),
                parseRate(arg(args, 2, 4, spec)),
                nanos(spec, arg(args, 3, 4, spec)));
        case "dpu" ->
            new DpuDevice(
                nanos(spec, arg(args, 0, 3, spec)),
                nanos(spec, arg(args, 1, 3, spec)),
                Double.parseDouble(arg(args, 2, 3, spec)));
        case "cpu" -> new CpuDevice(nanos(spec, arg(args, 0, 1, spec)));
        case "null" -> {
          arg(args, -1, 0, spec);
          yield new NullDevice();
        }
        default ->
            throw new IllegalArgumentException(
                "unknown device \"" + kind + "\" (valid: " + String.join(", ", KINDS) + ")");
      };
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "device \"" + spec + "\": bad number (" + e.getMessage() + ")");
    }
  }

  private static String arg(List<String> args, int i, int expected, String spec) {
    if (args.size() != expected) {
      throw new IllegalArgumentException(
          "device \""
              + spec
              + "\" takes "
              + expected
              + " argument"
              + (expected == 1 ? "" : "s")
              + ", got "
              + args.size());
    }
    return i < 0 ? "" : args.get(i);
  }

  /** {@code 180MB/s} (SI) or {@code 150MiB/s} (IEC) or a plain number of bytes per second. */
  static long parseRate(String text) {
    String s = text.strip();
    if (s.endsWith("/s")) {
      s = s.substring(0, s.length() - 2);
    }
    long mul = 1;
    String[][] units = {
      {"KiB", "1024"},
      {"MiB", "1048576"},
      {"GiB", "1073741824"},
      {"KB", "1000"},
      {"MB", "1000000"},
      {"GB", "1000000000"},
      {"B", "1"}
    };
    for (String[] u : units) {
      if (s.endsWith(u[0])) {
        mul = Long.parseLong(u[1]);
        s = s.substring(0, s.length() - u[0].length());
        break;
      }
    }
    return Math.round(Double.parseDouble(s.strip()) * mul);
  }

  private static long nanos(String spec, String text) {
    return Durations.parseNanos("device \"" + spec + "\" duration", text);
  }

  static long requirePositive(String what, long v) {
    if (v <= 0) {
      throw new IllegalArgumentException(what + " must be > 0, was " + v);
    }
    return v;
  }

  static long requireNonNegative(String what, long v) {
    if (v < 0) {
      throw new IllegalArgumentException(what + " must be >= 0, was " + v);
    }
    return v;
  }
}
