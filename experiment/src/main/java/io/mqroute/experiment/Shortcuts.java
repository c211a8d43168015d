package io.mqroute.experiment;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValue;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Short names an experiment may use for the keys variants override most, so a variant reads {@code
 * { name = patched, selector = reduced-v3 }} instead of {@code router.selector = reduced-v3}.
 */
final class Shortcuts {
  static final Map<String, String> KEYS = new LinkedHashMap<>();

  static {
    KEYS.put("selector", "router.selector");
    KEYS.put("selector-params", "router.selector-params");
    KEYS.put("admission", "router.admission");
    KEYS.put("max-background", "router.max-background");
    KEYS.put("pending-queue", "router.pending-queue");
    KEYS.put("full-ring", "queues.full-ring");
    KEYS.put("enqueue-error", "queues.enqueue-error");
    KEYS.put("enomem-probability", "queues.enomem-probability");
    KEYS.put("dispatch", "queues.dispatch");
    KEYS.put("ring-size", "queues.ring-size");
    KEYS.put("governor", "machine.cpu.governor");
  }

  private Shortcuts() {}

  /** The full path of {@code key} (itself unless it is a shortcut or starts with one). */
  static String expand(String key) {
    for (Map.Entry<String, String> e : KEYS.entrySet()) {
      if (key.equals(e.getKey())) {
        return e.getValue();
      }
      if (key.startsWith(e.getKey() + ".")) {
        return e.getValue() + key.substring(e.getKey().length());
      }
    }
    return key;
  }

  /** {@code c} with every shortcut key moved to its full path. */
  static Config expand(Config c) {
    Config out = c;
    for (Map.Entry<String, ConfigValue> e : c.root().entrySet()) {
      String full = KEYS.get(e.getKey());
      if (full != null) {
        out = out.withoutPath(e.getKey()).withValue(full, e.getValue());
      }
    }
    return out;
  }
}
