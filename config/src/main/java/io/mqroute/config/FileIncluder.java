package io.mqroute.config;

import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads an experiment-style HOCON file from text (through {@link HoconText}, so line numbers stay
 * right) while keeping {@code include "other.conf"} and {@code include file("...")} working
 * relative to the file's directory, as parsing the file directly would. A missing or unreadable
 * include is an error, not silently skipped.
 *
 * <p>Every file read (the top one and each include) must be a regular file within {@code maxBytes},
 * and {@code include url(...)} is refused: a config file must not make the process fetch from the
 * network (nor read {@code file:} URLs past the size check).
 */
public final class FileIncluder implements ConfigIncluder, ConfigIncluderFile, ConfigIncluderURL {
  private static final int MAX_DEPTH = 8;

  private final Path dir;
  private final long maxBytes;
  private int depth;

  private FileIncluder(Path dir, long maxBytes) {
    this.dir = dir;
    this.maxBytes = maxBytes;
  }

  /** Parses {@code file}, refusing it (and any include) above {@code maxBytes}. */
  public static ConfigObject parse(Path file, long maxBytes) {
    return new FileIncluder(file.toAbsolutePath().getParent(), maxBytes).read(file);
  }

  @Override
  public ConfigIncluder withFallback(ConfigIncluder fallback) {
    return this;
  }

  @Override
  public ConfigObject include(ConfigIncludeContext context, String what) {
    return read(dir.resolve(what).normalize());
  }

  @Override
  public ConfigObject includeFile(ConfigIncludeContext context, File what) {
    return read(dir.resolve(what.toPath()).normalize());
  }

  @Override
  public ConfigObject includeURL(ConfigIncludeContext context, URL what) {
    throw new ConfigError(
        dir.resolve("") + ": include url(" + what + ") is not allowed; include file(...) instead");
  }

  private ConfigObject read(Path file) {
    if (++depth > MAX_DEPTH) {
      throw new ConfigError(
          file + ": includes nested more than " + MAX_DEPTH + " deep (an include cycle?)");
    }
    try {
      if (!Files.isRegularFile(file)) {
        throw new ConfigError(file + ": no such file" + (depth > 1 ? " (included)" : ""));
      }
      // the origin is the path as the user gave it (an include's: resolved against the experiment's
      // directory)
      return ConfigFactory.parseString(
              HoconText.singleLineStrings(BoundedFiles.readString(file, maxBytes)),
              ConfigParseOptions.defaults()
                  .setSyntax(ConfigSyntax.CONF)
                  .setOriginDescription(file.toString())
                  .setIncluder(this))
          .root();
    } catch (BoundedFiles.Refused e) {
      throw new ConfigError(file + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ConfigError(file + ": cannot read (" + e.getMessage() + ")");
    } catch (ConfigException e) {
      throw new ConfigError(e.getMessage());
    } finally {
      depth--;
    }
  }
}
