package io.mqroute.experiment;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One band an experiment's results must fall in, e.g. {@code p99.9(refill) * 10 <=
 * p99.9(retry-1ms)} or {@code bw(patched, iodepth=4) >= 1.5 * bw(unpatched, iodepth=4)}: two
 * arithmetic expressions over numbers and metrics of variants (at a sweep point), compared with
 * {@code <= >= < > ==}.
 *
 * <p>Metrics: {@code iops}, {@code bw} (MiB/s), {@code mean}, {@code p50}, {@code p99}, {@code
 * p99.9}, {@code p99.99} (latency in µs), {@code errors}, {@code stalled} (1 or 0). With
 * replications a metric is the mean over them.
 */
public final class Expectation {
  public static final List<String> METRICS =
      List.of("iops", "bw", "mean", "p50", "p99", "p99.9", "p99.99", "errors", "stalled");

  private final String text;
  private final Node left;
  private final String op;
  private final Node right;

  /** A reference to one variant's results at one sweep point. */
  public record Ref(String variant, Map<String, String> point) {}

  private Expectation(String text, Node left, String op, Node right) {
    this.text = text;
    this.left = left;
    this.op = op;
    this.right = right;
  }

  public String text() {
    return text;
  }

  /** Every variant reference in the expression, so the parser can check that they exist. */
  public List<Ref> refs() {
    List<Ref> out = new ArrayList<>();
    left.refs(out);
    right.refs(out);
    return out;
  }

  /**
   * The verdict, with both sides' values. A side that is not a finite number (x / 0) never holds.
   */
  public record Verdict(Expectation expectation, double left, double right, boolean holds) {
    @Override
    public String toString() {
      String l = String.format(Locale.ROOT, "%.4g", left);
      String r = String.format(Locale.ROOT, "%.4g", right);
      if (l.equals(r) && left != right && Double.isFinite(left) && Double.isFinite(right)) {
        // e.g. a failed == between 35800 and 35801: show the digits that differ
        l = new BigDecimal(left).round(new MathContext(12)).stripTrailingZeros().toPlainString();
        r = new BigDecimal(right).round(new MathContext(12)).stripTrailingZeros().toPlainString();
      }
      String why =
          holds
              ? "holds"
              : Double.isFinite(left) && Double.isFinite(right)
                  ? "does not hold"
                  : "does not hold: a side is not a finite number (a division by zero?)";
      return String.format(
          Locale.ROOT,
          "%s %s: %s (%s %s %s)",
          holds ? "PASS" : "FAIL",
          expectation.text,
          why,
          l,
          expectation.op,
          r);
    }
  }

  /**
   * @param metric value of a metric for a variant reference
   */
  public Verdict evaluate(MetricSource metric) {
    double l = left.eval(metric);
    double r = right.eval(metric);
    boolean ok =
        Double.isFinite(l)
            && Double.isFinite(r)
            && switch (op) {
              case "<=" -> l <= r;
              case ">=" -> l >= r;
              case "<" -> l < r;
              case ">" -> l > r;
              default -> l == r;
            };
    return new Verdict(this, l, r, ok);
  }

  /** Resolves {@code metric(ref)}. */
  public interface MetricSource {
    double value(String metric, Ref ref);
  }

  /**
   * @throws IllegalArgumentException naming the position of a syntax error
   */
  public static Expectation parse(String text) {
    Parser p = new Parser(text);
    Node l = p.sum();
    String op = p.comparison();
    Node r = p.sum();
    p.end();
    return new Expectation(text.strip(), l, op, r);
  }

  private interface Node {
    double eval(MetricSource m);

    default void refs(List<Ref> out) {}
  }

  private record Num(double v) implements Node {
    public double eval(MetricSource m) {
      return v;
    }
  }

  private record Metric(String name, Ref ref) implements Node {
    public double eval(MetricSource m) {
      return m.value(name, ref);
    }

    public void refs(List<Ref> out) {
      out.add(ref);
    }
  }

  private record Bin(char op, Node a, Node b) implements Node {
    public double eval(MetricSource m) {
      double x = a.eval(m);
      double y = b.eval(m);
      return switch (op) {
        case '+' -> x + y;
        case '-' -> x - y;
        case '*' -> x * y;
        default -> x / y;
      };
    }

    public void refs(List<Ref> out) {
      a.refs(out);
      b.refs(out);
    }
  }

  private static final class Parser {
    private final String s;
    private int i;

    Parser(String s) {
      this.s = s;
    }

    private IllegalArgumentException error(String what) {
      return new IllegalArgumentException(
          "expectation \"" + s.strip() + "\": " + what + " at column " + (i + 1));
    }

    private void ws() {
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
    }

    Node sum() {
      Node n = product();
      for (ws(); i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-'); ws()) {
        char op = s.charAt(i++);
        n = new Bin(op, n, product());
      }
      return n;
    }

    Node product() {
      Node n = atom();
      for (ws(); i < s.length() && (s.charAt(i) == '*' || s.charAt(i) == '/'); ws()) {
        char op = s.charAt(i++);
        n = new Bin(op, n, atom());
      }
      return n;
    }

    Node atom() {
      ws();
      if (i >= s.length()) {
        throw error("expected a number or a metric");
      }
      char c = s.charAt(i);
      if (c == '(') {
        i++;
        Node n = sum();
        ws();
        expect(')');
        return n;
      }
      if (Character.isDigit(c) || c == '.') {
        int start = i;
        while (i < s.length()
            && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.' || s.charAt(i) == 'e')) {
          i++;
        }
        try {
          return new Num(Double.parseDouble(s.substring(start, i)));
        } catch (NumberFormatException e) {
          i = start;
          throw error("bad number");
        }
      }
      int start = i;
      while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '.')) {
        i++;
      }
      String metric = s.substring(start, i);
      if (!METRICS.contains(metric)) {
        i = start;
        throw error(
            "unknown metric \"" + metric + "\" (valid: " + String.join(", ", METRICS) + ")");
      }
      ws();
      expect('(');
      String inner = until(')');
      expect(')');
      String[] parts = inner.split(",");
      String variant = parts[0].strip();
      if (variant.isEmpty()) {
        throw error("missing variant name in " + metric + "(...)");
      }
      Map<String, String> point = new TreeMap<>();
      for (int k = 1; k < parts.length; k++) {
        String[] kv = parts[k].split("=", 2);
        if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
          throw error("expected key=value after the variant, got \"" + parts[k].strip() + "\"");
        }
        point.put(Shortcuts.expand(kv[0].strip()), kv[1].strip());
      }
      return new Metric(metric, new Ref(variant, point));
    }

    private String until(char c) {
      int start = i;
      while (i < s.length() && s.charAt(i) != c) {
        i++;
      }
      return s.substring(start, i);
    }

    private void expect(char c) {
      ws();
      if (i >= s.length() || s.charAt(i) != c) {
        throw error("expected '" + c + "'");
      }
      i++;
    }

    String comparison() {
      ws();
      for (String op : new String[] {"<=", ">=", "==", "<", ">"}) {
        if (s.startsWith(op, i)) {
          i += op.length();
          return op;
        }
      }
      throw error("expected one of <= >= == < >");
    }

    void end() {
      ws();
      if (i != s.length()) {
        throw error("unexpected \"" + s.substring(i) + "\"");
      }
    }
  }

  /** Helper for callers: metric value from a summary. */
  static double metric(String name, Summary s, boolean stalled) {
    return switch (name) {
      case "iops" -> s.iops();
      case "bw" -> s.bwBytes() / (1 << 20);
      case "mean" -> s.meanNs() / 1e3;
      case "p50" -> s.p50Ns() / 1e3;
      case "p99" -> s.p99Ns() / 1e3;
      case "p99.9" -> s.p999Ns() / 1e3;
      case "p99.99" -> s.p9999Ns() / 1e3;
      case "errors" -> s.errors();
      case "stalled" -> stalled ? 1 : 0;
      default -> throw new IllegalArgumentException("unknown metric " + name);
    };
  }
}
