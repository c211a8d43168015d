package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ResultsCsvTest {
  @Test
  void plainFieldsAreLeftAlone() {
    assertThat(ResultsCsv.field("ring4")).isEqualTo("ring4");
    assertThat(ResultsCsv.field("")).isEqualTo("");
    assertThat(ResultsCsv.field("p2c(d=2)")).isEqualTo("p2c(d=2)");
  }

  @Test
  void commasQuotesAndLineBreaksAreQuotedWithQuotesDoubled() {
    assertThat(ResultsCsv.field("[0, 1]")).isEqualTo("\"[0, 1]\"");
    assertThat(ResultsCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(ResultsCsv.field("a\nb")).isEqualTo("\"a\nb\"");
    assertThat(ResultsCsv.field("a\rb")).isEqualTo("\"a\rb\"");
  }
}
