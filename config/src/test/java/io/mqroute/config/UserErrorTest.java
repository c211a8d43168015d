package io.mqroute.config;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A user error is one line of bounded length, whatever it quotes from the input. */
class UserErrorTest {
  @Test
  void aLongMessageKeepsItsStartAndEndOnOneLine() {
    String key = "deep." + "a.".repeat(20_000) + "b";
    String m =
        new UserError("case.conf:25 (workload):6: unknown fio option \"" + key + "\" (variant x)")
            .getMessage();
    assertThat(m).hasSizeLessThanOrEqualTo(UserError.MAX_LENGTH + 60);
    assertThat(m)
        .startsWith("case.conf:25 (workload):6: unknown fio option \"deep.a.a.")
        .contains(" characters left out ...] ")
        .endsWith("a.a.b\" (variant x)");
    assertThat(new UserError("x.conf:3: s: must be a string, got \"a\nb\"").getMessage())
        .isEqualTo("x.conf:3: s: must be a string, got \"a\\nb\"");
    assertThat(new UserError("short").getMessage()).isEqualTo("short");
  }
}
