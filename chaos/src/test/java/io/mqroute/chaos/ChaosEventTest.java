package io.mqroute.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.actors.machine.Fault;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ChaosEventTest {
  @ParameterizedTest
  @ValueSource(
      strings = {
        "at 12ms offline cpu 3", "at 20ms online cpu 3", "at 5ms eio queue 2 rate 0.5 for 1ms",
        "at 5ms enomem queue 2 rate 1", "at 7ms stall queue 1 for 2ms",
            "at 9ms slow queue 0 x10 for 3ms",
        "at 11ms ring-full queue 3 slots 1 for 2ms", "at 1ms lose queue 0 count 1",
            "at 1500ns offline cpu 1"
      })
  void theLogSyntaxReadsBackToTheSameEvent(String line) {
    ChaosEvent e = ChaosEvent.parse(line);
    assertThat(e.toString()).isEqualTo(line);
    assertThat(ChaosEvent.parse(e.toString())).isEqualTo(e);
  }

  @Test
  void partsAreWhereTheyShouldBe() {
    ChaosEvent e = ChaosEvent.parse("AT 2ms  slow queue 4 x2.5 for 1s");
    assertThat(e.atNanos()).isEqualTo(2_000_000);
    assertThat(e.action()).isEqualTo(ChaosEvent.Action.FAULT);
    assertThat(e.target()).isEqualTo(4);
    assertThat(e.fault()).isEqualTo(new Fault(Fault.Kind.SLOWDOWN, 2.5));
    assertThat(e.forNanos()).isEqualTo(1_000_000_000L);
  }

  @Test
  void mistakesAreNamed() {
    assertThatThrownBy(() -> ChaosEvent.parse("at 1ms reboot cpu 1"))
        .hasMessageContaining("unknown event \"reboot\"");
    assertThatThrownBy(() -> ChaosEvent.parse("at soon offline cpu 1"))
        .hasMessageContaining("event time");
    assertThatThrownBy(() -> ChaosEvent.parse("at 1ms offline queue 1"))
        .hasMessageContaining("expected \"cpu\"");
    assertThatThrownBy(() -> ChaosEvent.parse("at 1ms eio queue 1 rate 2"))
        .hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> ChaosEvent.parse("at 1ms ring-full queue 1 slots 0"))
        .hasMessageContaining("at least 1");
    assertThatThrownBy(() -> ChaosEvent.parse("at 1ms stall queue 1 for"))
        .hasMessageContaining("for DURATION");
    assertThatThrownBy(() -> ChaosEvent.parse("at 1ms offline cpu -1"))
        .hasMessageContaining("whole number");
  }
}
