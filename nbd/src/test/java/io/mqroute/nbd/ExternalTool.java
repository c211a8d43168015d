package io.mqroute.nbd;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a real NBD client (qemu-io, nbdinfo, fio) with a time bound, for integration tests. */
final class ExternalTool {
  private ExternalTool() {}

  record Result(int exit, String output) {}

  /** The tool's path when it is on PATH, else null. */
  static Path find(String name) {
    String path = System.getenv().getOrDefault("PATH", "/usr/bin:/bin");
    for (String dir : path.split(":")) {
      Path p = Path.of(dir, name);
      if (Files.isExecutable(p)) {
        return p;
      }
    }
    return null;
  }

  static Result run(long timeoutSeconds, String... command)
      throws IOException, InterruptedException {
    return run(timeoutSeconds, List.of(command));
  }

  static Result run(long timeoutSeconds, List<String> command)
      throws IOException, InterruptedException {
    Path out = Files.createTempFile("nbd-tool", ".out");
    try {
      Process p =
          new ProcessBuilder(new ArrayList<>(command))
              // tools leave files in their working directory (fio's verify state): not the repo
              .directory(out.getParent().toFile())
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        return new Result(
            -1,
            "timed out after "
                + timeoutSeconds
                + " s: "
                + Files.readString(out, StandardCharsets.UTF_8));
      }
      return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
