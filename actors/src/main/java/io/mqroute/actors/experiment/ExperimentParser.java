package io.mqroute.actors.experiment;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.mqroute.actors.config.ConfigError;
import io.mqroute.actors.config.StrictConfig;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.actors.workload.FioWorkload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Reads an experiment script (HOCON): {@code name}, {@code description}, {@code seed}, the machine keys of
 * {@link MachineSpecParser}, {@code workload} (inline fio job text, or a path to a {@code .fio} file) and
 * {@code variants} — a list of objects with a {@code name} and overrides of any machine key, e.g.
 * {@code { name = p2c, router.selector = p2c }}. Unknown keys and bad values are one-line errors naming the
 * file, the line and the key.
 */
public final class ExperimentParser {
  /** Larger experiment or job files are refused: they are scripts, not data. */
  public static final long MAX_FILE_BYTES = 1L << 20;

  static final List<String> TOP_KEYS;

  static {
    List<String> k = new ArrayList<>(List.of("name", "description", "seed", "workload", "variants"));
    k.addAll(MachineSpecParser.KEYS);
    TOP_KEYS = List.copyOf(k);
  }

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private ExperimentParser() {}

  /**
   * @param seedOverride replaces the file's seed when not null
   * @param sets         {@code key=value} overrides applied to the base before the variants
   */
  public static ExperimentSpec parse(Path file, Long seedOverride, Map<String, String> sets) {
    Config raw = load(file);
    for (Map.Entry<String, String> e : sets.entrySet()) {
      Config one;
      try {
        one = ConfigFactory.parseString(e.getKey() + " = " + e.getValue(),
            ConfigParseOptions.defaults().setOriginDescription("--set " + e.getKey()));
      } catch (ConfigException ex) {
        throw new ConfigError("--set " + e.getKey() + "=" + e.getValue() + ": " + ex.getMessage());
      }
      raw = one.withFallback(raw);
    }
    StrictConfig top = StrictConfig.of(raw, "", TOP_KEYS);
    String name = top.requiredString("name");
    if (!NAME.matcher(name).matches()) {
      throw top.error("name", "must be 1-64 letters, digits, '.', '_' or '-', got \"" + name + "\"");
    }
    String description = top.string("description", "");
    long seed = seedOverride != null ? seedOverride : top.integer("seed", 1, 0, Integer.MAX_VALUE);
    Path dir = file.toAbsolutePath().getParent();
    String workloadText = top.requiredString("workload");
    Config base = raw.withoutPath("variants").withoutPath("name").withoutPath("description")
        .withoutPath("seed").withoutPath("workload");

    List<Variant> variants = new ArrayList<>();
    List<? extends ConfigObject> list = variantObjects(raw, top);
    if (list.isEmpty()) {
      variants.add(variant("default", Map.of(), base, workloadText, dir, raw));
    }
    for (ConfigObject o : list) {
      Config v = o.toConfig();
      StrictConfig.of(v.withoutPath("name"), "variants[" + variants.size() + "]",
          MachineSpecParser.KEYS);
      if (!v.hasPath("name")) {
        throw new ConfigError(where(o) + "variants[" + variants.size() + "]: missing key \"name\"");
      }
      String vname = v.getString("name");
      if (!NAME.matcher(vname).matches()) {
        throw new ConfigError(where(o) + "variants[" + variants.size() + "].name: must be 1-64 letters, digits,"
            + " '.', '_' or '-', got \"" + vname + "\"");
      }
      for (Variant prev : variants) {
        if (prev.name().equals(vname)) {
          throw new ConfigError(where(o) + "variants: two variants are named \"" + vname + "\"");
        }
      }
      Map<String, String> params = flatten(v.withoutPath("name"));
      variants.add(variant(vname, params, v.withoutPath("name").withFallback(base), workloadText, dir, raw));
    }
    return new ExperimentSpec(name, description, seed, file, List.copyOf(variants));
  }

  private static Variant variant(String name, Map<String, String> params, Config merged, String workloadText,
      Path dir, Config raw) {
    MachineSpec machine = MachineSpecParser.parse(StrictConfig.of(merged, "", MachineSpecParser.KEYS), dir);
    Workload w = workload(workloadText, dir, raw);
    return new Variant(name, params, machine, w);
  }

  private static Workload workload(String text, Path dir, Config raw) {
    String t = text.strip();
    String where = raw.hasPath("workload") ? StrictConfig.where(raw.getValue("workload").origin()) : "";
    if (!t.contains("\n") && t.endsWith(".fio")) {
      Path f = dir.resolve(t).normalize();
      try {
        if (Files.size(f) > MAX_FILE_BYTES) {
          throw new ConfigError(where + "workload: " + f + " is larger than 1 MiB");
        }
        return FioWorkload.parse(Files.readString(f), f.toString());
      } catch (IOException e) {
        throw new ConfigError(where + "workload: cannot read " + f + " (" + e.getMessage() + ")");
      }
    }
    return FioWorkload.parse(text, where.isEmpty() ? "workload" : where.substring(0, where.length() - 2));
  }

  private static List<? extends ConfigObject> variantObjects(Config raw, StrictConfig top) {
    if (!raw.hasPath("variants")) {
      return List.of();
    }
    ConfigValue v = raw.getValue("variants");
    if (v.valueType() != ConfigValueType.LIST) {
      throw top.error("variants", "must be a list of objects [ { name = ..., ... }, ... ]");
    }
    try {
      return raw.getObjectList("variants");
    } catch (ConfigException.WrongType e) {
      throw top.error("variants", "must be a list of objects [ { name = ..., ... }, ... ]");
    }
  }

  /** The overrides as flat {@code path = value} strings, in file order. */
  static Map<String, String> flatten(Config c) {
    Map<String, String> out = new LinkedHashMap<>();
    c.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> out.put(e.getKey(), String.valueOf(e.getValue().unwrapped())));
    return out;
  }

  private static Config load(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        throw new ConfigError(file + ": no such experiment file");
      }
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new ConfigError(file + ": larger than 1 MiB; an experiment is a script");
      }
      return ConfigFactory.parseFile(file.toFile(),
          ConfigParseOptions.defaults().setSyntax(ConfigSyntax.CONF).setAllowMissing(false)).resolve();
    } catch (ConfigException e) {
      throw new ConfigError(e.getMessage().replaceFirst("^" + Pattern.quote(file.toString()) + ": ", file + ":"));
    } catch (IOException e) {
      throw new ConfigError(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  private static String where(ConfigObject o) {
    return StrictConfig.where(o.origin());
  }
}
