package io.mqroute.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Runs an experiment written inline in a test: the text goes to a file in {@code dir}, one run at a
 * time.
 */
final class ExperimentText {
  private ExperimentText() {}

  static ExperimentResult run(Path dir, String name, String text) throws IOException {
    Path f = Files.writeString(dir.resolve(name + ".conf"), text);
    return ExperimentRunner.run(ExperimentParser.parse(f, null, Map.of(), false), 1, x -> {});
  }
}
