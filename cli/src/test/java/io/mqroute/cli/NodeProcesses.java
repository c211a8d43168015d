package io.mqroute.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.japi.function.Creator;

/**
 * The processes a test of node processes starts, and its bounded polling: {@link #close} kills
 * every one left (its descendants first: a killed parent's shutdown hook never stops them).
 */
final class NodeProcesses implements AutoCloseable {
  private final List<ProcessHandle> started = new ArrayList<>();
  private final ActorTestKit waiter;

  NodeProcesses(String name) {
    this.waiter = ActorTestKit.create(name);
  }

  /** {@link TestNodes#start}, killed at the end. */
  Process start(Path log, List<String> cmd) throws IOException {
    Process p = TestNodes.start(log, cmd);
    track(p.toHandle());
    return p;
  }

  /** A process started elsewhere, killed at the end. */
  void track(ProcessHandle p) {
    started.add(p);
  }

  /** The {@code i}-th process started or tracked. */
  ProcessHandle get(int i) {
    return started.get(i);
  }

  /**
   * Runs {@code cmd} to its end, at most {@code seconds}, its output in {@code dir/name.log}, and
   * returns what it printed.
   */
  String runToEnd(Path dir, String name, int seconds, List<String> cmd)
      throws IOException, InterruptedException {
    Path log = dir.resolve(name + ".log");
    Process p = start(log, cmd);
    if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError(
          name + " did not end within " + seconds + " s: " + TestNodes.tail(log));
    }
    return Files.readString(log);
  }

  /** Polls {@code check} every {@code interval} until it passes, at most {@code max}. */
  <T> T await(Duration max, Duration interval, Creator<T> check) {
    return waiter.createTestProbe().awaitAssert(max, interval, check);
  }

  @Override
  public void close() {
    started.forEach(h -> h.descendants().forEach(ProcessHandle::destroyForcibly));
    started.forEach(ProcessHandle::destroyForcibly);
    waiter.shutdownTestKit();
  }
}
