package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * fio's own option names (the table generated from fio's options.c and engines) are never
 * "unknown": each is read, recorded with a reason, or refused as "not supported".
 */
class FioOptionTableTest {

  private static List<String> tableNames() throws IOException {
    try (InputStream in = FioTable.class.getResourceAsStream("fio-options.txt")) {
      List<String> names = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String[] f = line.split(" ");
        if (f[0].equals("option")) {
          names.add(f[1]);
          if (f.length > 4) {
            names.addAll(List.of(f[4].split(",")));
          }
        }
      }
      return names;
    }
  }

  @Test
  void theTableIsFiosAndNamesItsCommit() throws IOException {
    assertThat(FioTable.commit()).matches("[0-9a-f]{40}");
    assertThat(tableNames()).hasSizeGreaterThan(380).contains("gtod_reduce", "ratemin", "nr_files");
    assertThat(FioTable.engine("libaio").flags()).doesNotContain("FIO_SYNCIO");
    assertThat(FioTable.engine("psync").flags()).contains("FIO_SYNCIO");
  }

  @Test
  void noOptionFioHasIsUnknown() throws IOException {
    for (String name : tableNames()) {
      String problem = FioOptions.problem(name);
      if (problem != null) {
        assertThat(problem).as(name).contains("is not supported").doesNotContain("unknown");
      }
    }
  }

  @Test
  void everyNameMqrouteClassifiesIsFios() {
    for (String name : FioOptions.RECORDED.keySet()) {
      assertThat(FioTable.canonical(name)).as("recorded " + name).isEqualTo(name);
    }
    for (String name : FioOptions.REFUSED.keySet()) {
      assertThat(FioTable.canonical(name)).as("refused " + name).isEqualTo(name);
    }
    for (String engine : IoEngine.REFUSED.keySet()) {
      assertThat(FioTable.engine(engine)).as("engine " + engine).isNotNull();
    }
  }

  @Test
  void aTypoIsStillUnknownWithASuggestion() {
    assertThat(FioOptions.problem("iodpeth"))
        .isEqualTo("unknown fio option \"iodpeth\" (did you mean \"iodepth\"?)");
  }
}
