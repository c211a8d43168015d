package io.mqroute.experiment;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigOrigin;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigUtil;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.actors.machine.MemoryEstimate;
import io.mqroute.actors.machine.Workload;
import io.mqroute.config.BoundedFiles;
import io.mqroute.config.ConfigError;
import io.mqroute.config.FileIncluder;
import io.mqroute.config.HoconText;
import io.mqroute.config.StrictConfig;
import io.mqroute.policies.NameSuggester;
import io.mqroute.workload.FioParseException;
import io.mqroute.workload.FioWorkload;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Reads an experiment script (HOCON). Keys: {@code name}, {@code description}, {@code seed}, {@code
 * replications}, the machine keys of {@link MachineSpecParser}, {@code workload} (inline fio job
 * text or a path to a {@code .fio} file), {@code device-size} (the modelled device's size in fio's
 * units, default {@code 1t}: what a job without {@code size=} does I/O to), {@code fio} (fio
 * options set in every job), {@code variants} (objects with a {@code name}, overrides of any
 * machine key or shortcut such as {@code selector}, {@code fio}, and {@code expect-stall}), {@code
 * sweep} (key → list of values; runs the product with the variants), {@code expect} (bands, see
 * {@link Expectation}) and {@code quick} (overrides applied with --quick). Unknown keys and bad
 * values are one-line errors naming the file, the line and the key.
 */
public final class ExperimentParser {
  /** Larger experiment or job files are refused: they are scripts, not data. */
  public static final long MAX_FILE_BYTES = 1L << 20;

  private static final List<String> OWN_KEYS =
      List.of(
          "name",
          "description",
          "seed",
          "replications",
          "workload",
          "device-size",
          "fio",
          "variants",
          "sweep",
          "expect",
          "quick");
  static final List<String> TOP_KEYS = concat(OWN_KEYS, MachineSpecParser.KEYS);
  private static final List<String> OVERRIDE_KEYS =
      concat(List.of("fio"), MachineSpecParser.KEYS, new ArrayList<>(Shortcuts.KEYS.keySet()));
  private static final List<String> VARIANT_KEYS =
      concat(List.of("name", "expect-stall"), OVERRIDE_KEYS);
  private static final List<String> QUICK_KEYS =
      concat(List.of("replications", "sweep"), OVERRIDE_KEYS);

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  private ExperimentParser() {}

  /**
   * @param seedOverride replaces the file's seed when not null
   * @param sets {@code key=value} overrides applied to the base before the variants
   * @param quick apply the file's {@code quick} profile (CI-sized runs)
   */
  public static ExperimentSpec parse(
      Path file, Long seedOverride, Map<String, String> setFlags, boolean quick) {
    List<SetFlag> sets =
        setFlags.entrySet().stream().map(e -> SetFlag.of(e.getKey(), e.getValue())).toList();
    Config raw = applySets(load(file), sets);
    StrictConfig top = StrictConfig.of(raw, "", TOP_KEYS);
    if (quick) {
      // the quick profile runs one replication unless it names its own (or --set replications does)
      int quickReplications = 1;
      if (raw.hasPath("quick")) {
        Config q = Shortcuts.expand(object(raw, top, "quick"));
        quickReplications =
            StrictConfig.of(q, "quick", QUICK_KEYS).integer("replications", 1, 1, 1000);
        raw = q.withoutPath("replications").withoutPath("sweep").withFallback(raw);
        if (q.hasPath("sweep")) { // a quick sweep replaces the full one instead of merging with it
          raw = raw.withValue("sweep", q.getValue("sweep"));
        }
      }
      raw = raw.withValue("replications", ConfigValueFactory.fromAnyRef(quickReplications));
      raw = applySets(raw, sets); // the command line wins over the quick profile
    }
    top = StrictConfig.of(raw, "", TOP_KEYS);
    int replications = top.integer("replications", 1, 1, 1000);
    String name = name(top);
    String description = top.string("description", "");
    long seed = seedOverride != null ? seedOverride : top.integer("seed", 1, 0, Integer.MAX_VALUE);
    Path dir = file.toAbsolutePath().getParent();
    Workload.Source workload = workloadSource(raw, top, dir);
    Map<String, String> baseFio = top.stringMap("fio");
    Config base = raw;
    for (String k : OWN_KEYS) {
      base = base.withoutPath(k);
    }

    Map<String, ConfigOrigin> sweepOrigins = new HashMap<>();
    Map<String, List<String>> sweep = sweep(raw, top, sweepOrigins);
    for (String key : sweep.keySet()) {
      String fioProblem = fioKeyProblem(key);
      if (fioProblem != null) {
        throw new ConfigError(StrictConfig.where(sweepOrigins.get(key)) + "sweep: " + fioProblem);
      }
    }
    for (SetFlag set : sets) {
      String key = set.key();
      if (sweep.containsKey(key)) {
        throw new ConfigError(
            "--set "
                + set.given()
                + ": "
                + key
                + " is swept "
                + sweep.get(key)
                + ", so a single value would be ignored; change the sweep (--set 'sweep.\""
                + key
                + "\"=[...]')");
      }
    }
    List<Map<String, String>> points = product(sweep);
    Map<String, String> fromSets = setParams(raw, sets);
    Set<String> setsUsed = new HashSet<>();

    List<Variant> variants = new ArrayList<>();
    List<? extends ConfigObject> list = variantObjects(raw, top);
    List<String> names = new ArrayList<>();
    int index = 0;
    for (ConfigObject o :
        list.isEmpty() ? List.of(ConfigFactory.parseString("name = default").root()) : list) {
      String path = "variants[" + index++ + "]";
      Config v = Shortcuts.expand(o.toConfig());
      StrictConfig sv = StrictConfig.of(v, path, VARIANT_KEYS);
      String vname = name(sv);
      if (names.contains(vname)) {
        throw sv.error("name", "two variants are named \"" + vname + "\"");
      }
      names.add(vname);
      boolean expectStall = sv.bool("expect-stall", false);
      Map<String, String> variantFio = sv.stringMap("fio");
      Config overrides = v.withoutPath("name").withoutPath("expect-stall").withoutPath("fio");
      Map<String, String> written = flatten(v.withoutPath("name"));
      Map<String, String> params = new LinkedHashMap<>();
      fromSets.forEach(
          (k, value) -> {
            if (written.keySet().stream().noneMatch(w -> within(w, k) || within(k, w))) {
              params.put(k, value); // a --set value this variant does not override
              setsUsed.add(k);
            }
          });
      params.putAll(written);
      for (String swept : sweep.keySet()) {
        boolean own =
            swept.startsWith("fio.")
                ? variantFio.containsKey(swept.substring(4))
                : v.hasPath(swept);
        if (own) {
          throw sv.error(
              swept.startsWith("fio.") ? "fio" : swept,
              "is swept "
                  + sweep.get(swept)
                  + ", so this variant's own value would be ignored; drop it here or from the sweep");
        }
      }
      for (Map<String, String> point : points) {
        Config merged = overrides.withFallback(base);
        Map<String, String> fio = new TreeMap<>(baseFio);
        fio.putAll(variantFio);
        for (Map.Entry<String, String> p : point.entrySet()) {
          if (p.getKey().startsWith("fio.")) {
            fio.put(p.getKey().substring(4), p.getValue());
          } else {
            // the sweep's own line, so that a bad key or value is reported where the sweep names it
            merged =
                merged.withValue(
                    p.getKey(),
                    ConfigValueFactory.fromAnyRef(p.getValue())
                        .withOrigin(sweepOrigins.get(p.getKey())));
          }
        }
        MachineSpec machine =
            MachineSpecParser.parse(StrictConfig.of(merged, "", MachineSpecParser.KEYS), dir);
        Variant variant =
            new Variant(vname, params, machine, workload.parse(fio), point, expectStall);
        List<JobPlan> plans;
        try { // options refused against this machine (direct=0, cpus_allowed, ...), before anything
          // runs
          plans = variant.workload().plans(machine);
        } catch (
            IllegalArgumentException
                e) { // FioParseException names the job's line; JobPlan's limits do not
          throw new ConfigError(
              e.getMessage()
                  + " (variant "
                  + variant.id()
                  + (fio.equals(baseFio) ? "" : ", fio overrides " + fio)
                  + ")");
        }
        refuseWhatDoesNotFitTheHeap(merged, raw, variant, plans);
        variants.add(variant);
      }
    }
    for (SetFlag set : sets) {
      String key = set.key();
      boolean configures = fromSets.keySet().stream().anyMatch(k -> within(k, key));
      boolean used = setsUsed.stream().anyMatch(k -> within(k, key));
      if (configures && !used) {
        throw new ConfigError(
            "--set "
                + set.given()
                + ": every variant sets its own "
                + key
                + ", so this value would be ignored; change the variants instead");
      }
    }
    List<Expectation> expectations = expectations(raw, top, names, sweep);
    return new ExperimentSpec(
        name,
        description,
        seed,
        file,
        List.copyOf(variants),
        List.copyOf(sweep.keySet()),
        replications,
        expectations,
        quick,
        expandedSets(sets));
  }

  /** The {@code name} of an experiment or a variant, checked against {@link #NAME}. */
  private static String name(StrictConfig c) {
    String name = c.requiredString("name");
    if (!NAME.matcher(name).matches()) {
      throw c.error("name", "must be 1-64 letters, digits, '.', '_' or '-', got \"" + name + "\"");
    }
    return name;
  }

  /**
   * A run bigger than the heap (64 x 1024 CPUs with rings of 2^20 slots, thousands of job clones
   * with their latency histograms) is refused before it runs out of memory, naming the key that
   * makes it big where it was written: a machine key in the experiment, or the workload's fio
   * option.
   */
  private static void refuseWhatDoesNotFitTheHeap(
      Config merged, Config raw, Variant variant, List<JobPlan> plans) {
    MemoryEstimate memory = MemoryEstimate.of(variant.machine(), plans);
    if (memory.fits()) {
      return;
    }
    String key = memory.largest().key();
    String where;
    if (key.contains(".")) { // a machine key
      where =
          StrictConfig.where(merged.hasPath(key) ? merged.getValue(key).origin() : merged.origin())
              + key;
    } else { // an fio option of the workload
      where = StrictConfig.where(raw.getValue("workload").origin()) + "workload: " + key;
    }
    throw new ConfigError(
        where + ": this run " + memory.describe() + " (variant " + variant.id() + ")");
  }

  /**
   * One {@code --set KEY=VALUE}: the key as given (for messages), and as a key path with shortcuts
   * expanded and quoting normalised ({@code fio."iodepth"} is {@code fio.iodepth}), so that it
   * compares with the file's paths.
   */
  private record SetFlag(String given, String key, String value) {
    static SetFlag of(String given, String value) {
      try {
        return new SetFlag(
            given, ConfigUtil.joinPath(ConfigUtil.splitPath(Shortcuts.expand(given))), value);
      } catch (ConfigException ex) {
        throw new ConfigError("--set " + given + ": not a key path (" + ex.getMessage() + ")");
      }
    }

    String first() {
      return ConfigUtil.splitPath(key).get(0);
    }
  }

  /** {@code raw} with every {@code --set key=value} applied (values are HOCON). */
  private static Config applySets(Config raw, List<SetFlag> sets) {
    for (SetFlag set : sets) {
      if (!TOP_KEYS.contains(set.first())) {
        throw new ConfigError(
            "--set "
                + set.given()
                + ": "
                + NameSuggester.unknown(
                    "key",
                    set.first(),
                    concat(TOP_KEYS, new ArrayList<>(Shortcuts.KEYS.keySet()))));
      }
      String fioProblem = fioKeyProblem(set.key());
      if (fioProblem != null) {
        throw new ConfigError("--set " + set.given() + ": " + fioProblem);
      }
      HoconText.Problem deep = HoconText.nestingProblem(set.value());
      if (deep != null) { // the parser would overflow the stack
        throw new ConfigError("--set " + set.given() + ": " + deep.message());
      }
      try {
        Config one =
            ConfigFactory.parseString(
                "\"x\" = " + set.value(),
                ConfigParseOptions.defaults().setOriginDescription("--set " + set.given()));
        raw = raw.withValue(set.key(), one.getValue("\"x\""));
      } catch (ConfigException ex) {
        throw new ConfigError("--set " + set.given() + "=" + set.value() + ": " + ex.getMessage());
      }
    }
    return raw;
  }

  /**
   * The {@code --set} values that configure a run (machine keys and {@code fio.*}), flattened like
   * a variant's overrides, so that {@code params} shows them; the experiment's own keys ({@code
   * replications}, ...) are not.
   */
  private static Map<String, String> setParams(Config raw, List<SetFlag> sets) {
    Map<String, String> out = new TreeMap<>();
    for (SetFlag set : sets) {
      if (!OWN_KEYS.contains(set.first()) || set.first().equals("fio")) {
        out.putAll(flatten(raw.withOnlyPath(set.key())));
      }
    }
    return out;
  }

  /** Whether the key path {@code path} is {@code root} or lies under it. */
  private static boolean within(String path, String root) {
    return path.equals(root) || path.startsWith(root + ".");
  }

  /**
   * Why a {@code fio.<option>} key names no option mqroute reads, or null (also for keys outside
   * fio).
   */
  private static String fioKeyProblem(String key) {
    return key.startsWith("fio.")
        ? FioWorkload.optionProblem(key.substring("fio.".length()))
        : null;
  }

  private static Map<String, String> expandedSets(List<SetFlag> sets) {
    Map<String, String> out = new LinkedHashMap<>();
    sets.forEach(set -> out.put(set.key(), set.value()));
    return Collections.unmodifiableMap(out);
  }

  /** Parses without --quick. */
  public static ExperimentSpec parse(Path file, Long seedOverride, Map<String, String> sets) {
    return parse(file, seedOverride, sets, false);
  }

  private static Config object(Config raw, StrictConfig top, String key) {
    ConfigValue v = raw.getValue(key);
    if (v.valueType() != ConfigValueType.OBJECT) {
      throw top.error(key, "must be an object { ... }");
    }
    return ((ConfigObject) v).toConfig();
  }

  private static Map<String, List<String>> sweep(
      Config raw, StrictConfig top, Map<String, ConfigOrigin> origins) {
    Map<String, List<String>> sweep = new TreeMap<>();
    if (!raw.hasPath("sweep")) {
      return sweep;
    }
    Config s = object(raw, top, "sweep");
    for (Map.Entry<String, ConfigValue> e : s.entrySet()) {
      // "fio.iodepth" (quoted) and fio.iodepth (a nested object) name the same key
      String key = Shortcuts.expand(String.join(".", ConfigUtil.splitPath(e.getKey())));
      String where = StrictConfig.where(e.getValue().origin());
      if (e.getValue().valueType() != ConfigValueType.LIST
          || ((ConfigList) e.getValue()).isEmpty()) {
        throw new ConfigError(
            where + "sweep." + e.getKey() + ": must be a non-empty list of values");
      }
      if (!key.startsWith("fio.") && !MachineSpecParser.KEYS.contains(key.split("\\.")[0])) {
        String hint = NameSuggester.nearest(e.getKey(), OVERRIDE_KEYS);
        throw new ConfigError(
            where
                + "sweep."
                + e.getKey()
                + ": not a key a sweep can vary"
                + (hint != null ? "; did you mean \"" + hint + "\"?" : "")
                + " (machine keys, shortcuts or fio.OPTION)");
      }
      List<String> values = new ArrayList<>();
      for (ConfigValue x : (ConfigList) e.getValue()) {
        values.add(String.valueOf(x.unwrapped()));
      }
      sweep.put(key, values);
      origins.put(key, e.getValue().origin());
    }
    return sweep;
  }

  /** Every combination of the swept values, the first key varying slowest. */
  static List<Map<String, String>> product(Map<String, List<String>> sweep) {
    List<Map<String, String>> out = new ArrayList<>();
    out.add(new LinkedHashMap<>());
    for (Map.Entry<String, List<String>> e : sweep.entrySet()) {
      List<Map<String, String>> next = new ArrayList<>();
      for (Map<String, String> p : out) {
        for (String v : e.getValue()) {
          Map<String, String> q = new LinkedHashMap<>(p);
          q.put(e.getKey(), v);
          next.add(q);
        }
      }
      out = next;
    }
    return out;
  }

  private static List<Expectation> expectations(
      Config raw, StrictConfig top, List<String> names, Map<String, List<String>> sweep) {
    Set<String> sweepKeys = sweep.keySet();
    List<Expectation> out = new ArrayList<>();
    if (!raw.hasPath("expect")) {
      return out;
    }
    if (raw.getValue("expect").valueType() != ConfigValueType.LIST) {
      throw top.error("expect", "must be a list of strings like \"p99(a) <= 2 * p99(b)\"");
    }
    for (ConfigValue v : raw.getList("expect")) {
      String where = StrictConfig.where(v.origin());
      if (v.valueType() != ConfigValueType.STRING) {
        throw new ConfigError(where + "expect: each entry must be a string");
      }
      Expectation e;
      try {
        e = Expectation.parse((String) v.unwrapped());
      } catch (IllegalArgumentException ex) {
        throw new ConfigError(where + ex.getMessage());
      }
      for (Expectation.Ref ref : e.refs()) {
        if (!names.contains(ref.variant())) {
          throw new ConfigError(
              where + "expect: " + NameSuggester.unknown("variant", ref.variant(), names));
        }
        for (Map.Entry<String, String> kv : ref.point().entrySet()) {
          String k = kv.getKey();
          String full =
              sweepKeys.contains(k)
                  ? k
                  : sweepKeys.stream()
                      .filter(s -> Variant.shortKey(s).equals(k))
                      .findFirst()
                      .orElse(null);
          if (full == null) {
            throw new ConfigError(
                where + "expect: \"" + k + "\" is not a swept key (swept: " + sweepKeys + ")");
          }
          if (!sweep.get(full).contains(kv.getValue())) {
            throw new ConfigError(
                where
                    + "expect: "
                    + k
                    + "="
                    + kv.getValue()
                    + " is not a swept value (swept: "
                    + sweep.get(full)
                    + ")");
          }
        }
        // a run is one point of the sweep: a reference that leaves out a key with several values
        // names no run
        List<String> missing = new ArrayList<>();
        for (Map.Entry<String, List<String>> s : sweep.entrySet()) {
          if (s.getValue().size() > 1 && !names(ref.point(), s.getKey())) {
            missing.add(Variant.shortKey(s.getKey()) + "=" + String.join("|", s.getValue()));
          }
        }
        if (!missing.isEmpty()) {
          throw new ConfigError(
              where
                  + "expect: "
                  + ref.variant()
                  + "(...) must say which sweep point it means: add "
                  + String.join(", ", missing));
        }
      }
      out.add(e);
    }
    return out;
  }

  /**
   * True if {@code point} (keys as written: full or short) gives a value for the swept {@code key}.
   */
  private static boolean names(Map<String, String> point, String key) {
    return point.containsKey(key)
        || point.keySet().stream().anyMatch(k -> k.equals(Variant.shortKey(key)));
  }

  private static Workload.Source workloadSource(Config raw, StrictConfig top, Path dir) {
    String text = top.requiredString("workload");
    String where = StrictConfig.where(raw.getValue("workload").origin());
    // what a job without size= does I/O to (fio: the whole file or device); size=N% and
    // fill_device refer to it too
    long deviceBytes = top.parse("device-size", "1t", FioWorkload::deviceBytes);
    String t = text.strip();
    String source;
    String content;
    if (!t.contains("\n") && t.endsWith(".fio")) {
      Path f = dir.resolve(t).normalize();
      try {
        // a regular file only: /dev/zero or a FIFO would pass a size check and then never end
        content = BoundedFiles.readString(f, MAX_FILE_BYTES);
        source = f.toString();
      } catch (BoundedFiles.Refused e) {
        throw new ConfigError(where + "workload: " + f + " is " + e.getMessage());
      } catch (IOException e) {
        throw new ConfigError(where + "workload: cannot read " + f + " (" + e.getMessage() + ")");
      }
    } else {
      content = text;
      // "file:LINE (workload)": fio's line N counts from the line the string starts on (see
      // HoconText)
      source =
          where.isEmpty() ? "workload" : where.substring(0, where.length() - 2) + " (workload)";
    }
    return overrides -> {
      try {
        return FioWorkload.parse(content, source, overrides, deviceBytes);
      } catch (FioParseException e) {
        throw new ConfigError(
            e.getMessage() + (overrides.isEmpty() ? "" : " (fio overrides " + overrides + ")"));
      }
    };
  }

  private static List<? extends ConfigObject> variantObjects(Config raw, StrictConfig top) {
    if (!raw.hasPath("variants")) {
      return List.of();
    }
    ConfigValue v = raw.getValue("variants");
    if (v.valueType() != ConfigValueType.LIST) {
      throw top.error("variants", "must be a list of objects [ { name = ..., ... }, ... ]");
    }
    List<? extends ConfigObject> list;
    try {
      list = raw.getObjectList("variants");
    } catch (ConfigException.WrongType e) {
      throw top.error("variants", "must be a list of objects [ { name = ..., ... }, ... ]");
    }
    if (list.isEmpty()) {
      throw top.error(
          "variants", "is empty: list at least one variant, or leave the key out for one run");
    }
    return list;
  }

  /** The overrides as flat {@code path = value} strings, sorted. */
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
      if (file.getFileName().toString().endsWith(".fio")) {
        return fioJobExperiment(file);
      }
      // parsed from text (HoconText keeps the line numbers right), includes relative to the file's
      // directory
      return FileIncluder.resolve(
          FileIncluder.parse(file, MAX_FILE_BYTES).toConfig(), file.toString());
    } catch (IOException e) {
      throw new ConfigError(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  /**
   * {@code mqroute run JOB.fio}: an experiment of every default (machine, queues, device) whose
   * workload is the job file as it is, named after the file.
   */
  private static Config fioJobExperiment(Path file) {
    String base = file.getFileName().toString();
    String name =
        base.substring(0, base.length() - ".fio".length()).replaceAll("[^A-Za-z0-9._-]", "-");
    if (name.isEmpty() || !Character.isLetterOrDigit(name.charAt(0))) {
      name = "job-" + name;
    }
    Map<String, Object> keys = new LinkedHashMap<>();
    keys.put("name", name.length() > 64 ? name.substring(0, 64) : name);
    keys.put("workload", file.toAbsolutePath().normalize().toString());
    return ConfigFactory.parseMap(keys, file.toString());
  }

  @SafeVarargs
  private static List<String> concat(List<String>... lists) {
    List<String> out = new ArrayList<>();
    for (List<String> l : lists) {
      out.addAll(l);
    }
    return List.copyOf(out);
  }
}
