package io.mqroute.runtime;

import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The {@link java.util.concurrent.ExecutorService} a virtual-time dispatcher sees: it only appends
 * to the shared {@link RunQueue}; the driver thread runs the tasks.
 *
 * <p>It keeps accepting tasks after {@link #shutdown()}. A Pekko dispatcher shuts its executor down
 * after {@code shutdown-timeout} without actors and lazily creates a new one, and a message racing
 * with that may still be handed to the old instance; rejecting it would lose a mailbox run. Since
 * this object owns neither threads nor the queue, "terminated" is reached as soon as it is shut
 * down.
 */
final class RunQueueExecutor extends AbstractExecutorService {
  private final RunQueue queue;
  private volatile boolean shutdown;

  RunQueueExecutor(RunQueue queue) {
    this.queue = queue;
  }

  @Override
  public void execute(Runnable command) {
    queue.execute(command);
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return shutdown;
  }
}
