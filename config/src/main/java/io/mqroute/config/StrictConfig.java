package io.mqroute.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.mqroute.policies.NameSuggester;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads one HOCON object strictly: every key must be known, every value of the right type, and
 * every error is one line with file, line and the full key path ({@code smoke.conf:12:
 * queues.ring-size: must be >= 1}).
 */
public final class StrictConfig {
  private final Config config;
  private final String path;
  private final ConfigOrigin origin;

  private StrictConfig(Config config, String path, ConfigOrigin origin) {
    this.config = config;
    this.path = path;
    this.origin = origin;
  }

  /**
   * @param allowed the keys this object may have (every other key is an error)
   */
  public static StrictConfig of(Config config, String path, Collection<String> allowed) {
    StrictConfig c = new StrictConfig(config, path, config.origin());
    c.checkKeys(allowed);
    return c;
  }

  private void checkKeys(Collection<String> allowed) {
    for (Map.Entry<String, ConfigValue> e : new TreeMap<>(config.root()).entrySet()) {
      if (!allowed.contains(e.getKey())) {
        String hint = NameSuggester.nearest(e.getKey(), allowed);
        throw new ConfigError(
            where(e.getValue().origin())
                + "unknown key \""
                + full(e.getKey())
                + "\""
                + (hint != null ? "; did you mean \"" + full(hint) + "\"?" : "")
                + " (valid: "
                + String.join(", ", allowed)
                + ")");
      }
    }
  }

  public boolean has(String key) {
    return config.hasPath(quote(key));
  }

  public StrictConfig object(String key, Collection<String> allowed) {
    if (!has(key)) {
      return of(ConfigFactory.empty(origin.description()), full(key), allowed);
    }
    ConfigValue v = value(key);
    if (v.valueType() != ConfigValueType.OBJECT) {
      throw error(key, "must be an object { ... }, got " + v.valueType().name().toLowerCase());
    }
    StrictConfig c = new StrictConfig(config.getConfig(quote(key)), full(key), v.origin());
    c.checkKeys(allowed);
    return c;
  }

  public String string(String key, String def) {
    if (!has(key)) {
      return def;
    }
    ConfigValue v = value(key);
    if (v.valueType() == ConfigValueType.OBJECT || v.valueType() == ConfigValueType.LIST) {
      throw error(key, "must be a string, got " + v.valueType().name().toLowerCase());
    }
    return String.valueOf(v.unwrapped());
  }

  public String requiredString(String key) {
    if (!has(key)) {
      throw new ConfigError(where(origin) + "missing key \"" + full(key) + "\"");
    }
    return string(key, null);
  }

  /**
   * A whole number in {@code [min, max]}: a decimal ({@code 1.5}, also as a string) is refused, not
   * truncated.
   */
  public int integer(String key, int def, int min, int max) {
    if (!has(key)) {
      return def;
    }
    ConfigValue written = value(key);
    Number n = read(key, config::getNumber, "must be a whole number");
    long v = wholeNumber(n, () -> error(key, "must be a whole number, got " + shown(written)));
    if (v < min || v > max) {
      throw error(key, "must be in [" + min + ", " + max + "], got " + shown(written));
    }
    return (int) v;
  }

  /**
   * {@code n} as a long if it is a whole number (beyond the long range: saturated, so that a range
   * check refuses it); else {@code notWhole}'s error.
   */
  private static long wholeNumber(Number n, Supplier<ConfigError> notWhole) {
    if (n instanceof Integer || n instanceof Long) {
      return n.longValue();
    }
    double d = n.doubleValue();
    if (Double.isNaN(d) || (!Double.isInfinite(d) && d != Math.rint(d))) {
      throw notWhole.get();
    }
    return d >= 0x1p63 ? Long.MAX_VALUE : d <= -0x1p63 ? Long.MIN_VALUE : (long) d;
  }

  /** A value as written ({@code 1.5}, {@code 1e30}), for messages. */
  private static String shown(ConfigValue v) {
    return v.valueType() == ConfigValueType.STRING
        ? "\"" + v.unwrapped() + "\""
        : v.render(ConfigRenderOptions.concise());
  }

  public double number(String key, double def, double min, double max) {
    if (!has(key)) {
      return def;
    }
    double v = read(key, config::getDouble, "must be a number");
    if (!(v >= min && v <= max)) {
      throw error(key, "must be in [" + min + ", " + max + "], got " + v);
    }
    return v;
  }

  public boolean bool(String key, boolean def) {
    if (!has(key)) {
      return def;
    }
    return read(key, config::getBoolean, "must be true or false");
  }

  /** A duration with a unit ({@code 40us}, {@code 1.5ms}); 0 is allowed. */
  public long nanos(String key, long def) {
    if (!has(key)) {
      return def;
    }
    long v =
        read(key, k -> config.getDuration(k).toNanos(), "must be a duration like 40us, 1ms or 2s");
    if (v < 0) {
      throw error(key, "must not be negative");
    }
    return v;
  }

  /**
   * The value at {@code key} (which is there) as {@code get} reads it; one of another type is an
   * error saying what it {@code must} be and what was written.
   */
  private <T> T read(String key, Function<String, T> get, String must) {
    try {
      return get.apply(quote(key));
    } catch (ConfigException.BadValue | ConfigException.WrongType e) {
      throw error(key, must + ", got \"" + value(key).unwrapped() + "\"");
    }
  }

  public List<String> strings(String key, List<String> def) {
    if (!has(key)) {
      return def;
    }
    try {
      return config.getStringList(quote(key));
    } catch (ConfigException.WrongType e) {
      throw error(key, "must be a list of strings [ ... ]");
    }
  }

  /** A list of whole numbers, each an int; a decimal among them is refused, not truncated. */
  public List<Integer> ints(String key, List<Integer> def) {
    if (!has(key)) {
      return def;
    }
    List<Number> numbers;
    try {
      numbers = config.getNumberList(quote(key));
    } catch (ConfigException.WrongType e) {
      throw error(key, "must be a list of whole numbers [ ... ]");
    }
    ConfigList written = config.getList(quote(key));
    List<Integer> out = new ArrayList<>();
    for (int i = 0; i < numbers.size(); i++) {
      String at = shown(written.get(i)) + " at [" + i + "]";
      Supplier<ConfigError> bad = () -> error(key, "must be a list of whole numbers, got " + at);
      long v = wholeNumber(numbers.get(i), bad);
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw bad.get();
      }
      out.add((int) v);
    }
    return List.copyOf(out);
  }

  /** The object under {@code key} as flat string pairs (selector parameters and the like). */
  public Map<String, String> stringMap(String key) {
    Map<String, String> out = new TreeMap<>();
    if (!has(key)) {
      return out;
    }
    StrictConfig o = object(key, keysOf(key));
    for (String k : o.config.root().keySet()) {
      out.put(k, o.string(k, null));
    }
    return out;
  }

  private Set<String> keysOf(String key) {
    return config.getConfig(quote(key)).root().keySet();
  }

  /**
   * Converts a value with a parser that throws IllegalArgumentException (selector names, device
   * specs, ...), turning its message into a located config error.
   */
  public <T> T parse(String key, String def, Function<String, T> parser) {
    String s = string(key, def);
    try {
      return parser.apply(s);
    } catch (IllegalArgumentException e) {
      throw error(key, e.getMessage());
    }
  }

  public ConfigError error(String key, String message) {
    ConfigOrigin o = has(key) ? value(key).origin() : origin;
    return new ConfigError(where(o) + full(key) + ": " + message);
  }

  private ConfigValue value(String key) {
    return config.getValue(quote(key));
  }

  private String full(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private static String quote(String key) {
    return key.contains(".") ? "\"" + key + "\"" : key;
  }

  /** {@code file:line: } for a value's origin, or "" when unknown. */
  public static String where(ConfigOrigin o) {
    if (o == null) {
      return "";
    }
    String file = o.filename() != null ? o.filename() : o.description();
    List<String> parts = new ArrayList<>();
    if (file != null) {
      // a parsed string's description carries its line ("f.conf: 12"), or a range when values were
      // merged
      parts.add(file.replaceFirst(": \\d+(-\\d+)?$", "").replaceFirst("^String$", "<string>"));
    }
    if (o.lineNumber() > 0
        && (file == null || !file.startsWith("--set "))) { // a --set value is one line
      parts.add(String.valueOf(o.lineNumber()));
    }
    return parts.isEmpty() ? "" : String.join(":", parts) + ": ";
  }
}
