package io.mqroute.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Threads that each drive one virtual-time run at a time (experiment variants, chaos seeds): daemon
 * threads, so an interrupted command does not hang the JVM, and a run's failure comes back as the
 * run's own exception.
 */
public final class RunPool implements AutoCloseable {
  private final ExecutorService pool;

  public RunPool(int threads, String name) {
    if (threads < 1) {
      throw new IllegalArgumentException("need at least one thread, was " + threads);
    }
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            r -> {
              Thread t = new Thread(r, name);
              t.setDaemon(true);
              return t;
            });
  }

  public <T> Future<T> submit(Callable<T> run) {
    return pool.submit(run);
  }

  /** The run's result; its RuntimeException as thrown, anything else wrapped. */
  public static <T> T join(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
