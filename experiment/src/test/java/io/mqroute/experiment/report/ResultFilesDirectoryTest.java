package io.mqroute.experiment.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where results go when no --out is given. */
class ResultFilesDirectoryTest {
  @TempDir Path tmp;

  @Test
  void theDefaultDirectoryIsNamedAfterTheExperimentAndTheUtcSecond() {
    Instant t = Instant.parse("2026-11-30T05:45:12Z");
    Path base = tmp.resolve("cwd");
    assertThat(ResultFiles.defaultDir(base, "tiny", t))
        .isEqualTo(base.resolve("results/tiny/20261130-054512"));
    Path a = ResultFiles.create(null, base, "tiny", t).dir();
    Path b = ResultFiles.create(null, base, "tiny", t).dir();
    assertThat(a).isDirectory().isEqualTo(base.resolve("results/tiny/20261130-054512"));
    assertThat(b).isDirectory().isEqualTo(base.resolve("results/tiny/20261130-054512-2"));
  }
}
