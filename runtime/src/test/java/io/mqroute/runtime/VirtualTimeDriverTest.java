package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.pekko.dispatch.ExecutionContexts;
import org.apache.pekko.event.NoLogging;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Start barrier, foreign-task detection and thread confinement of the driver, without an
 * ActorSystem.
 */
class VirtualTimeDriverTest {
  private final VirtualTimeScheduler scheduler =
      new VirtualTimeScheduler(
          ConfigFactory.empty(), NoLogging.getInstance(), Executors.defaultThreadFactory());
  private final VirtualTimeDriver driver = VirtualTimeDriver.bindToCurrentThread(scheduler);
  private final ExecutorService simExecutor = scheduler.newExecutorService();
  private final ExecutorService otherThread = Executors.newSingleThreadExecutor();

  @AfterEach
  void stopOtherThread() throws InterruptedException {
    otherThread.shutdownNow();
    assertThat(otherThread.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
  }

  @Test
  void pumpRunsForeignTasksWithoutAdvancingVirtualTime() {
    boolean[] timerFired = {false};
    scheduler.scheduleOnce(
        Duration.ofNanos(10),
        () -> timerFired[0] = true,
        ExecutionContexts.fromExecutor(Runnable::run));
    AtomicBoolean started = new AtomicBoolean();
    otherThread.execute(() -> simExecutor.execute(() -> started.set(true)));

    assertThat(driver.pumpUntil(started::get, Duration.ofSeconds(30))).isTrue();

    assertThat(scheduler.nanoTime()).isZero();
    assertThat(timerFired[0]).isFalse();
  }

  @Test
  void pumpGivesUpAfterItsWallTimeout() {
    assertThat(driver.pumpUntil(() -> false, Duration.ofMillis(20))).isFalse();
  }

  @Test
  void foreignTaskDuringARunIsDetected() {
    AtomicBoolean sent = new AtomicBoolean();
    CompletableFuture<Void> runStarted = new CompletableFuture<>();
    simExecutor.execute(() -> runStarted.complete(null));
    // Keeps the run busy (one timer per virtual microsecond) until the other thread has injected
    // its task.
    scheduler.scheduleAtFixedRate(
        Duration.ofNanos(1_000),
        Duration.ofNanos(1_000),
        () -> {},
        ExecutionContexts.fromExecutor(Runnable::run));
    otherThread.execute(
        () -> {
          runStarted.join();
          simExecutor.execute(() -> {});
          sent.set(true);
        });

    ForeignTaskException failure =
        catchThrowableOfType(
            ForeignTaskException.class,
            () -> driver.runUntil(TimeUnit.HOURS.toNanos(1), sent::get));

    assertThat(failure).isNotNull();
    assertThat(failure.stats().foreignTasks()).isEqualTo(1);
    assertThat(failure.stats().stopReason()).isEqualTo(RunStats.StopReason.FOREIGN_TASK);
    assertThat(failure.getMessage()).contains("from thread pool-");
  }

  @Test
  void foreignTaskPendingWhenARunStartsIsDetected() throws Exception {
    otherThread.submit(() -> simExecutor.execute(() -> {})).get();

    assertThatThrownBy(() -> driver.runUntil(Long.MAX_VALUE, () -> false))
        .isInstanceOf(ForeignTaskException.class);
  }

  @Test
  void tasksFromTheDriverThreadBetweenRunsAreNotForeign() {
    boolean[] ran = {false};
    simExecutor.execute(() -> ran[0] = true);
    RunStats stats = driver.runUntil(Long.MAX_VALUE, () -> ran[0]);
    assertThat(stats.done()).isTrue();
    assertThat(stats.foreignTasks()).isZero();
  }

  @Test
  void driverRefusesCallsFromAnotherThread() throws Exception {
    Throwable thrown =
        otherThread
            .submit(
                () -> {
                  try {
                    driver.runUntil(1, () -> true);
                    return null;
                  } catch (IllegalStateException e) {
                    return e;
                  }
                })
            .get();
    assertThat(thrown)
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bound to thread");
  }
}
