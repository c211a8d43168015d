package io.mqroute.chaos;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigRenderOptions;
import com.typesafe.config.ConfigValueFactory;
import io.mqroute.config.ConfigError;
import io.mqroute.config.FileIncluder;
import io.mqroute.config.StrictConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What it takes to run a failed chaos seed again, exactly: the profile's text (not its path, which
 * may change), the directory its relative file names point to (a file it names, such as an
 * empirical latency CSV, is read again from there, not carried), the seed, the semantics, whether
 * --quick was on, and what the run produced — its event log and digest — to check the replay
 * against.
 */
public record ReplayFile(
    String profileName,
    String profileText,
    String baseDir,
    long seed,
    Semantics semantics,
    boolean quick,
    List<String> events,
    String digest,
    List<String> violations) {

  private static final List<String> KEYS =
      List.of(
          "version",
          "profile-name",
          "profile",
          "base-dir",
          "seed",
          "semantics",
          "quick",
          "events",
          "digest",
          "violations");

  public static ReplayFile of(ChaosProfile profile, SeedResult r) {
    return new ReplayFile(
        profile.name(),
        profile.text(),
        profile.baseDir().toString(),
        r.seed(),
        r.semantics(),
        profile.quick(),
        r.events(),
        r.digest(),
        r.violations());
  }

  /** The profile as it was, with the recorded semantics and quick switch. */
  public ChaosProfile profile() {
    return ChaosProfileParser.parse(
        new ChaosProfileParser.Source(
            profileName + " (from the replay file)", profileText, Path.of(baseDir)),
        semantics,
        quick);
  }

  public void write(Path file) throws IOException {
    Config c =
        ConfigFactory.empty()
            .withValue(
                "replay",
                ConfigValueFactory.fromMap(
                    Map.of(
                        "version", 1,
                        "profile-name", profileName,
                        "profile", profileText,
                        "base-dir", baseDir,
                        "seed", seed,
                        "semantics", semantics.id(),
                        "quick", quick,
                        "events", events,
                        "digest", digest,
                        "violations", violations)));
    String text =
        "# mqroute chaos replay file: mqroute chaos --replay "
            + file.getFileName()
            + "\n"
            + c.root()
                .render(ConfigRenderOptions.defaults().setOriginComments(false).setJson(false));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, text);
  }

  /**
   * @throws ConfigError naming the file and key
   */
  public static ReplayFile read(Path file) {
    try {
      if (!Files.isRegularFile(file)) {
        throw new ConfigError(file + ": no such replay file");
      }
      if (Files.size(file) > ChaosProfileParser.MAX_FILE_BYTES * 4) {
        throw new ConfigError(file + ": larger than 4 MiB; not a replay file");
      }
      // the bounded includer: an include would otherwise bypass the size limit above (or fetch a
      // url)
      Config raw = FileIncluder.parse(file, ChaosProfileParser.MAX_FILE_BYTES * 4).toConfig();
      StrictConfig top = StrictConfig.of(raw, "", List.of("replay"));
      StrictConfig r = top.object("replay", KEYS);
      if (r.integer("version", 0, 0, Integer.MAX_VALUE) != 1) {
        throw r.error("version", "this mqroute reads replay files of version 1");
      }
      return new ReplayFile(
          r.requiredString("profile-name"),
          r.requiredString("profile"),
          r.string("base-dir", Path.of("").toAbsolutePath().toString()),
          Long.parseLong(r.requiredString("seed")),
          r.parse("semantics", "kernel", Semantics::parse),
          r.bool("quick", false),
          r.strings("events", List.of()),
          r.requiredString("digest"),
          r.strings("violations", List.of()));
    } catch (ConfigException e) {
      throw new ConfigError(e.getMessage());
    } catch (NumberFormatException e) {
      throw new ConfigError(file + ": replay.seed must be a whole number");
    } catch (IOException e) {
      throw new ConfigError(file + ": cannot read (" + e.getMessage() + ")");
    }
  }

  /** Compares a re-run with the record: null when the same, else where they first differ. */
  public String divergence(SeedResult again) {
    for (int i = 0; i < Math.max(events.size(), again.events().size()); i++) {
      String want = i < events.size() ? events.get(i) : "(end of log)";
      String got = i < again.events().size() ? again.events().get(i) : "(end of log)";
      if (!want.equals(got)) {
        return "event " + (i + 1) + " differs: recorded \"" + want + "\", replayed \"" + got + "\"";
      }
    }
    if (!digest.equals(again.digest())) {
      return "same event log but digest " + again.digest() + " instead of " + digest;
    }
    return null;
  }
}
