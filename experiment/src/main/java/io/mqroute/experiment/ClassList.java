package io.mqroute.experiment;

import java.util.List;

/**
 * {@link RunCodec#CLASSES}: the classes a run's result is made of (found by walking the results of
 * the shipped experiments) and the JDK collections and boxes such results may hold. Kept apart
 * because it is long and is only ever appended to: an id is a position here.
 */
final class ClassList {
  private ClassList() {}

  static final List<String> NAMES =
      List.of(
          // 100: the model's result
          "io.mqroute.actors.machine.MachineResult",
          "io.mqroute.actors.machine.CoreProtocol$CoreStats",
          "io.mqroute.actors.machine.FlowProtocol$QueueStats",
          "io.mqroute.actors.machine.FlowProtocol$RouterStats",
          "io.mqroute.actors.machine.LittlesLaw",
          "io.mqroute.actors.machine.PerturbationProtocol$Report",
          "io.mqroute.actors.machine.Queueing",
          // 107: the jobs' statistics
          "io.mqroute.metrics.Direction",
          "io.mqroute.metrics.DirectionStats",
          "io.mqroute.metrics.FioLog",
          "[Lio.mqroute.metrics.FioLog$Averager;",
          "io.mqroute.metrics.FioLog$Averager",
          "io.mqroute.metrics.JobInfo",
          "io.mqroute.metrics.JobStats",
          "io.mqroute.metrics.LatencyStat",
          "io.mqroute.metrics.PercentileList",
          "io.mqroute.metrics.ReportOptions",
          "io.mqroute.metrics.Samples",
          "io.mqroute.metrics.Samples$Series",
          "[Lio.mqroute.metrics.Samples$Series;",
          // 120: HdrHistogram
          "org.HdrHistogram.Histogram",
          "org.HdrHistogram.HistogramIterationValue",
          "org.HdrHistogram.PercentileIterator",
          "org.HdrHistogram.RecordedValuesIterator",
          // 124: arrays and boxes
          "[B",
          "[I",
          "[J",
          "[D",
          "[Z",
          "[Ljava.lang.String;",
          "[Ljava.lang.Object;",
          "java.lang.Integer",
          "java.lang.Long",
          "java.lang.Double",
          "java.lang.Boolean",
          // 135: collections
          "java.util.ArrayList",
          "java.util.LinkedList",
          "java.util.HashMap",
          "java.util.LinkedHashMap",
          "java.util.TreeMap",
          "java.util.HashSet",
          "java.util.LinkedHashSet",
          "java.util.TreeSet",
          "java.util.EnumMap",
          "java.util.Arrays$ArrayList",
          "java.util.Collections$UnmodifiableMap",
          "java.util.Collections$UnmodifiableList",
          "java.util.Collections$UnmodifiableRandomAccessList",
          "java.util.Collections$UnmodifiableSet",
          "java.util.Collections$EmptyList",
          "java.util.Collections$EmptyMap",
          "java.util.Collections$EmptySet",
          "java.util.Collections$SingletonList",
          "java.util.ImmutableCollections$List12",
          "java.util.ImmutableCollections$ListN",
          "java.util.ImmutableCollections$Set12",
          "java.util.ImmutableCollections$SetN",
          "java.util.ImmutableCollections$Map1",
          "java.util.ImmutableCollections$MapN");
}
