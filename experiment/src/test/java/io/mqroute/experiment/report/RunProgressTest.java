package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.experiment.Variant;
import io.mqroute.experiment.VariantResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunProgressTest {
  @Test
  void withoutATerminalEachVariantIsOnePlainLine() {
    StringWriter err = new StringWriter();
    MachineResult m =
        new MachineResult(
            List.of(), List.of(), null, List.of(), List.of(), List.of(), null, 5_000_000L);
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
}
