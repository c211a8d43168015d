package io.mqroute.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigIncludeContext;
import com.typesafe.config.ConfigIncluder;
import com.typesafe.config.ConfigIncluderFile;
import com.typesafe.config.ConfigIncluderURL;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigParseOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import java.io.File;
import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;

/**
 * The one way mqroute reads HOCON a user wrote — experiments, chaos profiles, replay files, node
 * config files: parsed from text (through {@link HoconText}, so line numbers stay right) while
 * keeping {@code include "other.conf"} and {@code include file("...")} working relative to the
 * file's directory, as parsing the file directly would. A missing or unreadable include is an
 * error, not silently skipped.
 *
 * <p>Every file read (the top one and each include) must be a regular file of valid UTF-8 within
 * {@code maxBytes}, and {@code include url(...)} is refused: a config file must not make the
 * process fetch from the network (nor read {@code file:} URLs past the size check); {@code include
 * classpath(...)} reads mqroute's own resources. Each text is checked for nesting deeper than
 * {@link HoconText#MAX_NESTING} before it is parsed, and the merged tree after its includes: the
 * parser recurses once per level, and a few thousand levels overflow the stack.
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
    ConfigObject root = new FileIncluder(file.toAbsolutePath().getParent(), maxBytes).read(file);
    checkDepth(root, file.toString());
    return root;
  }

  /**
   * Parses {@code text} as if it were a file in {@code dir} (a profile kept as text, a built-in
   * resource): its includes are files relative to {@code dir}, each within {@code maxBytes}.
   *
   * @param origin names the text in error messages (a file name)
   */
  public static ConfigObject parse(String text, String origin, Path dir, long maxBytes) {
    FileIncluder includer = new FileIncluder(dir.toAbsolutePath(), maxBytes);
    includer.depth++;
    try {
      ConfigObject root = includer.parseText(text, origin);
      checkDepth(root, origin);
      return root;
    } finally {
      includer.depth--;
    }
  }

  /**
   * {@code config.resolve()}, with a chain of substitutions too long to resolve ({@code a = ${b}, b
   * = ${c}, ...}: the resolver recurses once per link) refused as a one-line error.
   *
   * @param origin names the input in the message
   */
  public static Config resolve(Config config, String origin) {
    try {
      return config.resolve();
    } catch (ConfigException e) {
      throw new ConfigError(e.getMessage());
    } catch (StackOverflowError e) {
      throw new ConfigError(
          origin + ": substitutions (${...}) refer to each other too deeply to resolve");
    }
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
      depth--;
      throw new ConfigError(
          file + ": includes nested more than " + MAX_DEPTH + " deep (an include cycle?)");
    }
    try {
      if (!Files.isRegularFile(file)) {
        throw new ConfigError(file + ": no such file" + (depth > 1 ? " (included)" : ""));
      }
      // the origin is the path as the user gave it (an include's: resolved against the experiment's
      // directory)
      return parseText(BoundedFiles.readString(file, maxBytes), file.toString());
    } catch (BoundedFiles.Refused e) {
      throw new ConfigError(file + ": " + e.getMessage());
    } catch (IOException e) {
      throw new ConfigError(file + ": cannot read (" + e.getMessage() + ")");
    } finally {
      depth--;
    }
  }

  private ConfigObject parseText(String text, String origin) {
    HoconText.Problem deep = HoconText.nestingProblem(text);
    if (deep != null) {
      throw new ConfigError(origin + ":" + deep.line() + ": " + deep.message());
    }
    try {
      return ConfigFactory.parseString(
              HoconText.singleLineStrings(text),
              ConfigParseOptions.defaults()
                  .setSyntax(ConfigSyntax.CONF)
                  .setOriginDescription(origin)
                  .setIncluder(this))
          .root();
    } catch (ConfigException e) {
      throw new ConfigError(e.getMessage());
    } catch (StackOverflowError e) { // not expected below MAX_NESTING; never a trace
      throw new ConfigError(origin + ": nested too deeply to parse");
    }
  }

  /**
   * Refuses a tree whose objects and lists nest deeper than {@link HoconText#MAX_NESTING} (an
   * include inside a deep object adds the included file's depth), walking it without recursion.
   */
  static void checkDepth(ConfigObject root, String origin) {
    record Level(ConfigValue value, int depth) {}
    ArrayDeque<Level> todo = new ArrayDeque<>();
    todo.push(new Level(root, 0));
    while (!todo.isEmpty()) {
      Level l = todo.pop();
      Iterable<? extends ConfigValue> children;
      if (l.value() instanceof ConfigObject o) {
        children = o.values();
      } else if (l.value() instanceof ConfigList list) {
        children = list;
      } else {
        continue;
      }
      if (l.depth() > HoconText.MAX_NESTING) {
        String where = StrictConfig.where(l.value().origin());
        throw new ConfigError(
            (where.isEmpty() ? origin + ": " : where)
                + "nested more than "
                + HoconText.MAX_NESTING
                + " levels deep (objects and lists, counting included files)");
      }
      children.forEach(v -> todo.push(new Level(v, l.depth() + 1)));
    }
  }
}
