package io.mqroute.policies.selector;

import io.mqroute.policies.NameSuggester;
import io.mqroute.policies.Params;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.QueueSelectorProvider;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Creates selectors by the names experiments use: first the built-ins, then {@link
 * QueueSelectorProvider}s found by {@link ServiceLoader}, then a fully qualified class name with a
 * public static {@code create(Map<String,String>)} or a public {@code (Map<String,String>)}
 * constructor. Unknown names and parameters fail with the nearest valid spelling.
 */
public final class Selectors {

  /** Built-in names in documentation order. */
  public static final List<String> BUILT_IN =
      List.of(
          "static-cpu",
          "mq-map",
          "reduced-v3",
          "reduced-v2",
          "random",
          "round-robin",
          "p2c",
          "p2c-distinct",
          "shortest",
          "single",
          "hotplug-aware");

  private Selectors() {}

  /** {@code create(name, Map.of())}. */
  public static QueueSelector create(String name) {
    return create(name, Map.of());
  }

  /**
   * A new selector. {@code hotplug-aware} takes {@code inner} (a selector name) and passes every
   * other parameter on to that inner selector.
   */
  public static QueueSelector create(String name, Map<String, String> params) {
    QueueSelector builtIn = builtIn(name, params);
    if (builtIn != null) {
      return builtIn;
    }
    List<String> known = new ArrayList<>(BUILT_IN);
    for (QueueSelectorProvider p : ServiceLoader.load(QueueSelectorProvider.class)) {
      if (p.name().equals(name)) {
        return p.create(params);
      }
      known.add(p.name());
    }
    if (name.contains(".")) {
      return byClassName(name, params);
    }
    throw new IllegalArgumentException(NameSuggester.unknown("selector", name, known));
  }

  private static QueueSelector builtIn(String name, Map<String, String> params) {
    switch (name) {
      case "static-cpu":
        Params.of(name, params);
        return StaticCpuSelector.newBuilder().build();
      case "mq-map":
        Params.of(name, params);
        return MqMapSelector.newBuilder().build();
      case "reduced-v3":
        {
          Params p =
              Params.of(name, params, "local", "numa", "global", "retries", "foreground-only");
          int max = Integer.MAX_VALUE;
          return ReducedV3Selector.newBuilder()
              .localThreshold(p.intValue("local", 2, 0, max))
              .numaThreshold(p.intValue("numa", 3, 0, max))
              .globalThreshold(p.intValue("global", 4, 0, max))
              .retries(p.intValue("retries", 2, 0, max))
              .foregroundOnly(p.boolValue("foreground-only", false))
              .build();
        }
      case "reduced-v2":
        {
          Params p = Params.of(name, params, "numa", "global", "retries", "as-posted");
          int max = Integer.MAX_VALUE;
          return ReducedV2Selector.newBuilder()
              .numaThreshold(p.intValue("numa", 3, 0, max))
              .globalThreshold(p.intValue("global", 4, 0, max))
              .retries(p.intValue("retries", 2, 0, ReducedV2Selector.Builder.MAX_RETRIES))
              .asPosted(p.boolValue("as-posted", true))
              .build();
        }
      case "random":
        Params.of(name, params);
        return RandomSelector.newBuilder().build();
      case "round-robin":
        Params.of(name, params);
        return RoundRobinSelector.newBuilder().build();
      case "p2c", "p2c-distinct":
        {
          int choices =
              Params.of(name, params, "choices")
                  .intValue("choices", 2, 1, PowerOfChoicesSelector.MAX_CHOICES);
          return name.equals("p2c")
              ? PowerOfChoicesSelector.newBuilder().choices(choices).build()
              : DistinctChoicesSelector.newBuilder().choices(choices).build();
        }
      case "shortest":
        Params.of(name, params);
        return ShortestQueueSelector.newBuilder().build();
      case "single":
        {
          Params p = Params.of(name, params, "queue");
          SingleQueueSelector.Builder b = SingleQueueSelector.newBuilder();
          if (p.stringValue("queue") != null) {
            b.queue(p.intValue("queue", 0, 0, Integer.MAX_VALUE));
          }
          return b.build();
        }
      case "hotplug-aware":
        {
          String inner = params.get("inner");
          if (inner == null) {
            throw new IllegalArgumentException(
                "hotplug-aware: parameter \"inner\" is required"
                    + " (valid: "
                    + String.join(", ", BUILT_IN)
                    + ", or a provider or class name)");
          }
          Map<String, String> rest = new HashMap<>(params);
          rest.remove("inner");
          return HotplugAwareSelector.wrap(create(inner, rest));
        }
      default:
        return null;
    }
  }

  private static QueueSelector byClassName(String className, Map<String, String> params) {
    Class<?> type;
    try {
      type = Class.forName(className, true, Thread.currentThread().getContextClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalArgumentException("unknown selector class \"" + className + "\"", e);
    }
    if (!QueueSelector.class.isAssignableFrom(type)) {
      throw new IllegalArgumentException(
          className + " does not implement " + QueueSelector.class.getName());
    }
    try {
      try {
        Method create = type.getMethod("create", Map.class);
        if (Modifier.isStatic(create.getModifiers())
            && QueueSelector.class.isAssignableFrom(create.getReturnType())) {
          return (QueueSelector) create.invoke(null, params);
        }
      } catch (NoSuchMethodException ignored) {
        // fall through to the constructor form
      }
      Constructor<?> ctor = type.getConstructor(Map.class);
      return (QueueSelector) ctor.newInstance(params);
    } catch (InvocationTargetException e) {
      if (e.getCause() instanceof IllegalArgumentException iae) {
        throw iae;
      }
      throw new IllegalArgumentException(
          "cannot create " + className + ": " + e.getCause(), e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          className
              + " needs a public static create(Map<String,String>)"
              + " or a public constructor taking Map<String,String>",
          e);
    }
  }
}
