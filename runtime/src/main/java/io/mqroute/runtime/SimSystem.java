package io.mqroute.runtime;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * One ActorSystem in virtual time whose guardian is the simulation's root behaviour, driven by the
 * thread that started it.
 *
 * <pre>{@code
 * CompletableFuture<Result> result = new CompletableFuture<>();
 * try (SimSystem<Void> sim = SimSystem.start("exp", ConfigFactory.empty(), Model.root(params, result))) {
 *   RunStats stats = sim.runUntil(horizonNanos, result::isDone);
 *   ...
 * }
 * }</pre>
 *
 * <p>or, for the common case, {@link #run}. The root runs as the user guardian on {@link
 * SimDispatcher}: unlike an actor spawned from outside with {@code systemActorOf}, the guardian is
 * created synchronously, so no other thread touches it once it has started. ({@code systemActorOf}
 * hands the new actor over from the system guardian's thread after it has started; children spawned
 * in that window make the system guardian forward their {@code Supervise} message, a foreign task
 * seen in about 1 of 20 runs.) {@link #start} returns once the root's {@code Behaviors.setup} has
 * run (the start barrier), at virtual time 0. Messages sent from the driver thread (e.g. {@code
 * sim.root().tell(...)} between two runs) are not foreign.
 *
 * <p>Do not stop the root during a run: a typed system terminates with its guardian, and
 * termination arrives from other threads. Complete a result instead and let {@link #close}
 * terminate.
 *
 * <p>Run several systems concurrently by giving each its own thread; they share nothing.
 */
public final class SimSystem<T> implements AutoCloseable {
  private final ActorSystem<T> system;
  private final VirtualTimeDriver driver;
  private boolean closed;

  private SimSystem(ActorSystem<T> system, VirtualTimeDriver driver) {
    this.system = system;
    this.driver = driver;
  }

  /**
   * Creates an ActorSystem in virtual time with {@code root} as its guardian on the simulation
   * dispatcher, binds the calling thread as its driver, and waits (in wall time, at most {@code
   * mqroute.runtime.start-timeout}) until the root has started.
   *
   * @param extra configuration on top of {@code ConfigFactory.load()}; {@link ClockMode#VIRTUAL}'s
   *     keys override it
   * @throws IllegalStateException if the root does not start in time (the system is then
   *     terminated)
   */
  public static <T> SimSystem<T> start(String name, Config extra, Behavior<T> root) {
    Config config = ClockMode.VIRTUAL.config(extra.withFallback(ConfigFactory.load()));
    // Only the driver thread writes and reads it (the setup runs on the run queue), so a plain
    // holder suffices.
    boolean[] started = {false};
    ActorSystem<T> system =
        ActorSystem.create(
            Behaviors.setup(
                ctx -> {
                  started[0] = true;
                  return root;
                }),
            name,
            config,
            SimDispatcher.selector());
    VirtualTimeDriver driver = VirtualTimeDriver.bindToCurrentThread(system);
    RuntimeSettings settings = driver.scheduler().settings();
    try {
      if (!driver.awaitStart(system, () -> started[0], settings.startTimeout())) {
        throw new IllegalStateException(
            "root actor of virtual-time system "
                + name
                + " did not start within "
                + settings.startTimeout());
      }
      return new SimSystem<>(system, driver);
    } catch (RuntimeException | Error e) {
      driver.terminate(system, settings.terminateTimeout());
      throw e;
    }
  }

  /**
   * Starts a system with the root {@code model.apply(result)}, runs it until {@code result} is
   * completed (by the model, on the driver thread) or {@code horizonNanos}, and terminates it.
   *
   * @return the result if completed, and the run's statistics
   * @throws ForeignTaskException if the run was not deterministic
   */
  public static <T, R> Outcome<R> run(
      String name,
      Config extra,
      long horizonNanos,
      Function<CompletableFuture<R>, Behavior<T>> model) {
    CompletableFuture<R> result = new CompletableFuture<>();
    try (SimSystem<T> sim = start(name, extra, model.apply(result))) {
      RunStats stats = sim.runUntil(horizonNanos, result::isDone);
      return new Outcome<>(Optional.ofNullable(result.getNow(null)), stats);
    }
  }

  /**
   * See {@link VirtualTimeDriver#runUntil}. Must be called on the thread that started the system.
   */
  public RunStats runUntil(long horizonNanos, BooleanSupplier done) {
    return driver.runUntil(horizonNanos, done);
  }

  /** The root actor (the system's guardian). */
  public ActorRef<T> root() {
    return system;
  }

  /** The ActorSystem; its guardian is the root behaviour. */
  public ActorSystem<T> system() {
    return system;
  }

  /** The virtual clock. */
  public NanoClock clock() {
    return driver.scheduler();
  }

  /** The driver, for finer control than {@link #runUntil}. */
  public VirtualTimeDriver driver() {
    return driver;
  }

  /**
   * Terminates the system, running its shutdown on this thread.
   *
   * @throws IllegalStateException if it does not terminate within {@code
   *     mqroute.runtime.terminate-timeout}
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (!driver.terminate(system, driver.scheduler().settings().terminateTimeout())) {
      throw new IllegalStateException(
          "virtual-time system "
              + system.name()
              + " did not terminate within "
              + driver.scheduler().settings().terminateTimeout());
    }
  }

  /**
   * Result of {@link #run}.
   *
   * @param result the value the model completed, empty if the run stopped at the horizon or went
   *     idle first
   * @param stats what the run did
   */
  public record Outcome<R>(Optional<R> result, RunStats stats) {}
}
