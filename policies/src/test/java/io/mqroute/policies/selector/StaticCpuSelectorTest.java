package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.testing.ScriptedRandom;
import io.mqroute.policies.topology.CpuTopology;
import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code fuse_uring_task_to_queue}: queues[task_cpu], qid >= nr -> 0, missing queue -> NULL. */
class StaticCpuSelectorTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
        own queue                                | 8 | 0 1 2 3 4 5 6 7 |    | 3 | 3
        own queue even if busy and background    | 8 | 0 1 2 3 4 5 6 7 |    | 5 | 5
        cpu >= queue count falls back to queue 0 | 4 | 0 1 2 3         |    | 6 | 0
        missing own queue is NONE                | 8 | 0 1 2 4 5 6 7   |    | 3 | -1
        fallback to a missing queue 0 is NONE    | 4 | 1 2 3           |    | 6 | -1
        offline CPU does not matter              | 8 | 0 1 2 3 4 5 6 7 | 3  | 3 | 3
        """)
  void picksTheSubmittingCpusQueue(
      String name, int queues, String registered, String offline, int cpu, int expected) {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
            .queues(queues)
            .registered(ints(registered))
            .nrReqs(new int[queues])
            .offline(ints(offline))
            .build();
    view.setNrReqs(Math.min(cpu, queues - 1), 100);
    ScriptedRandom random = new ScriptedRandom();
    QueueSelector s = StaticCpuSelector.newBuilder().build();
    assertThat(s.select(view, cpu, true, random)).isEqualTo(expected);
    assertThat(s.select(view, cpu, false, random)).isEqualTo(expected);
    assertThat(random.used()).isZero();
  }

  static int[] ints(String s) {
    if (s == null || s.isBlank()) {
      return new int[0];
    }
    return Arrays.stream(s.trim().split("\\s+")).mapToInt(Integer::parseInt).toArray();
  }
}
