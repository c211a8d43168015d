package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.experiment.Variant;
import io.mqroute.experiment.VariantResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;

class RunProgressTest {
  @Test
  void withoutATerminalEachVariantIsOnePlainLine() {
    StringWriter err = new StringWriter();
    MachineResult m =
        new MachineResult(
            List.of(), List.of(), null, List.of(), List.of(), List.of(), null, 5_000_000L, null);
    VariantResult r =
        new VariantResult(
            new Variant("ring4", Map.of(), null, null, Map.of(), false),
            m,
            null,
            "",
            1_500_000_000L,
            List.of(),
            List.of(m));
    try (RunProgress p = RunProgress.lines(new PrintWriter(err))) {
      p.accept(r);
    }
    assertThat(err.toString())
        .isEqualTo(
            "mqroute: variant ring4 done in 1.5 s wall (0.005s virtual)" + System.lineSeparator());
    assertThat(err.toString()).doesNotContain("\r", "\u001b");
  }

  @Test
  void aLongRunSaysHowFarItHasGotEveryIntervalOfWallTime() {
    StringWriter err = new StringWriter();
    long[] wall = {0};
    long s = 1_000_000_000L;
    Variant v = new Variant("long", Map.of(), null, null, Map.of(), false);
    try (RunProgress p = RunProgress.lines(new PrintWriter(err), () -> wall[0], 10 * s)) {
      LongConsumer run = p.started(v, 7, 20 * s);
      run.accept(s); // nothing yet: less than 10 s of wall time
      wall[0] = 10 * s;
      run.accept(3 * s);
      wall[0] = 15 * s;
      run.accept(4 * s); // 5 s after the last line: nothing
      wall[0] = 21 * s;
      run.accept(5 * s);
      LongConsumer sized = p.started(v, 8, -1);
      wall[0] = 31 * s;
      sized.accept(2_500_000_000L);
    }
    assertThat(err.toString().lines())
        .containsExactly(
            "mqroute: variant long (seed 7): 3.000s of 20s (15.0%) simulated after 10 s wall",
            "mqroute: variant long (seed 7): 5.000s of 20s (25.0%) simulated after 21 s wall",
            "mqroute: variant long (seed 8): 2.500s of at most 1h (size-based) simulated after 10 s"
                + " wall");
  }
}
