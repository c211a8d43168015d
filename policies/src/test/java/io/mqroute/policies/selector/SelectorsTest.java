package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.testing.FixedQueueSelector;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SelectorsTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
        static-cpu    | StaticCpuSelector[]
        mq-map        | MqMapSelector[]
        reduced-v3    | ReducedV3Selector[local=2, numa=3, global=4, retries=2]
        random        | RandomSelector[]
        round-robin   | RoundRobinSelector[]
        p2c           | PowerOfChoicesSelector[choices=2]
        shortest      | ShortestQueueSelector[]
        single        | SingleQueueSelector[queue=first]
        """)
  void knowsEveryBuiltInName(String name, String expected) {
    assertThat(Selectors.create(name)).hasToString(expected);
  }

  @Test
  void passesParametersToBuilders() {
    assertThat(
            Selectors.create(
                "reduced-v3",
                Map.of(
                    "local",
                    "1",
                    "numa",
                    "5",
                    "global",
                    "7",
                    "retries",
                    "0",
                    "foreground-only",
                    "true")))
        .hasToString("ReducedV3Selector[local=1, numa=5, global=7, retries=0, foreground-only]");
    assertThat(Selectors.create("p2c", Map.of("choices", "3")))
        .hasToString("PowerOfChoicesSelector[choices=3]");
    assertThat(Selectors.create("p2c-distinct", Map.of("choices", "3")))
        .hasToString("DistinctChoicesSelector[choices=3]");
    assertThat(Selectors.create("single", Map.of("queue", "4")))
        .hasToString("SingleQueueSelector[queue=4]");
  }

  @Test
  void hotplugAwareWrapsItsInnerAndForwardsTheRest() {
    QueueSelector s =
        Selectors.create("hotplug-aware", Map.of("inner", "reduced-v3", "retries", "1"));
    assertThat(s)
        .hasToString(
            "HotplugAwareSelector[inner=ReducedV3Selector[local=2, numa=3, global=4, retries=1]]");
    assertThatThrownBy(() -> Selectors.create("hotplug-aware"))
        .hasMessageStartingWith(
            "hotplug-aware: parameter \"inner\" is required (valid: static-cpu,");
  }

  @Test
  void unknownNameSuggestsTheNearest() {
    assertThatThrownBy(() -> Selectors.create("reduced-v4"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unknown selector \"reduced-v4\"; did you mean \"reduced-v3\"? (valid: static-cpu, "
                + "mq-map, reduced-v3, reduced-v2, random, round-robin, p2c, p2c-distinct, shortest, single,"
                + " hotplug-aware, "
                + "test-fixed)");
    assertThatThrownBy(() -> Selectors.create("roundrobin"))
        .hasMessageContaining("did you mean \"round-robin\"?");
    assertThatThrownBy(() -> Selectors.create("zzzzzzzzzzzz"))
        .hasMessageNotContaining("did you mean");
  }

  @Test
  void unknownParameterIsNamedWithTheValidOnes() {
    assertThatThrownBy(() -> Selectors.create("reduced-v3", Map.of("retry", "1")))
        .hasMessage(
            "unknown parameter \"retry\"; did you mean \"retries\"? "
                + "(valid: local, numa, global, retries, foreground-only) for reduced-v3");
    assertThatThrownBy(() -> Selectors.create("random", Map.of("seed", "1")))
        .hasMessage("unknown parameter \"seed\": random takes no parameters");
  }

  @ParameterizedTest(name = "{0}={1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
        reduced-v3 | retries         | -1   | reduced-v3: retries must be >= 0, got -1
        reduced-v3 | local           | -2   | reduced-v3: local must be >= 0, got -2
        reduced-v3 | numa            | x    | reduced-v3: numa must be an integer >= 0, got "x"
        reduced-v3 | global          | -1   | reduced-v3: global must be >= 0, got -1
        reduced-v3 | foreground-only | yes  | reduced-v3: foreground-only must be true or false, got "yes"
        p2c        | choices         | 0    | p2c: choices must be in [1, 64], got 0
        p2c        | choices         | 65   | p2c: choices must be in [1, 64], got 65
        single     | queue           | -1   | single: queue must be >= 0, got -1
        """)
  void invalidValuesNameTheParameterAndRange(
      String name, String key, String value, String message) {
    assertThatThrownBy(() -> Selectors.create(name, Map.of(key, value)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }

  @Test
  void buildersRejectBadValuesWithTheSameWords() {
    assertThatThrownBy(() -> ReducedV3Selector.newBuilder().retries(-1))
        .hasMessage("retries must be >= 0, got -1");
    assertThatThrownBy(() -> ReducedV3Selector.newBuilder().numaThreshold(-3))
        .hasMessage("numa must be >= 0, got -3");
    // v2's walk has no bound but its retries: an unbounded value would walk for ever on every
    // request
    assertThatThrownBy(() -> ReducedV2Selector.newBuilder().retries(65))
        .hasMessageContaining("retries");
    assertThatThrownBy(() -> PowerOfChoicesSelector.newBuilder().choices(0))
        .hasMessage("choices must be in [1, 64], got 0");
    assertThatThrownBy(() -> SingleQueueSelector.newBuilder().queue(-1))
        .hasMessage("queue must be >= 0, got -1");
    assertThatThrownBy(() -> HotplugAwareSelector.newBuilder().build())
        .hasMessage("inner must be set to a selector");
  }

  @Test
  void findsServiceLoaderProvidersAndClassNames() {
    assertThat(Selectors.create("test-fixed", Map.of("queue", "3")))
        .isInstanceOfSatisfying(FixedQueueSelector.class, s -> assertThat(s.queue()).isEqualTo(3));
    assertThat(Selectors.create(FixedQueueSelector.class.getName(), Map.of("queue", "5")))
        .isInstanceOfSatisfying(FixedQueueSelector.class, s -> assertThat(s.queue()).isEqualTo(5));
    assertThat(Selectors.create(FixedQueueSelector.WithCreate.class.getName()))
        .isInstanceOf(FixedQueueSelector.WithCreate.class);
    assertThatThrownBy(
            () ->
                Selectors.create(FixedQueueSelector.WithCreate.class.getName(), Map.of("bad", "1")))
        .hasMessage("bad must not be set");
    assertThatThrownBy(() -> Selectors.create("com.example.Missing"))
        .hasMessage("unknown selector class \"com.example.Missing\"");
    assertThatThrownBy(() -> Selectors.create("java.lang.String"))
        .hasMessage("java.lang.String does not implement io.mqroute.policies.QueueSelector");
  }
}
