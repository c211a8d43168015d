package io.mqroute.actors.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * architecture.md §3: behaviours read time only through {@link NanoClock} and wait only through
 * timers. This guard scans the module's main sources; only this runtime package may touch the wall
 * clock.
 */
class WallClockUsageTest {
  private static final Path MAIN = Path.of("src/main/java");
  private static final Path RUNTIME = MAIN.resolve("io/mqroute/actors/runtime");
  private static final Pattern WALL_CLOCK =
      Pattern.compile(
          "System\\s*\\.\\s*(nanoTime|currentTimeMillis)\\s*\\(|Thread\\s*\\.\\s*sleep\\s*\\(");

  @Test
  void onlyTheRuntimePackageReadsTheWallClock() throws IOException {
    assertThat(MAIN).isDirectory();
    List<Path> offenders;
    try (Stream<Path> files = Files.walk(MAIN)) {
      offenders =
          files
              .filter(file -> file.toString().endsWith(".java"))
              .filter(file -> !file.startsWith(RUNTIME))
              .filter(WallClockUsageTest::readsWallClock)
              .collect(Collectors.toList());
    }
    assertThat(offenders).as("use NanoClock / typed timers instead").isEmpty();
  }

  @Test
  void theGuardRecognisesAWallClockRead() {
    assertThat(WALL_CLOCK.matcher("long t = System.nanoTime();").find()).isTrue();
    assertThat(WALL_CLOCK.matcher("Thread" + ".sleep(1)").find()).isTrue();
    assertThat(WALL_CLOCK.matcher("clock.nanoTime()").find()).isFalse();
  }

  private static boolean readsWallClock(Path file) {
    try {
      return WALL_CLOCK.matcher(Files.readString(file)).find();
    } catch (IOException e) {
      throw new IllegalStateException("cannot read " + file, e);
    }
  }
}
