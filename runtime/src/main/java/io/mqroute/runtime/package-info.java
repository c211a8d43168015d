/**
 * The runtime that lets the same Pekko typed behaviours run in deterministic virtual time or in
 * real time.
 *
 * <p><b>Virtual time</b> ({@link io.mqroute.runtime.ClockMode#VIRTUAL}): the {@link
 * io.mqroute.runtime.VirtualTimeScheduler} keeps a nanosecond virtual clock and a timer heap; the
 * simulation dispatcher ({@link io.mqroute.runtime.SimDispatcher}) runs on its single-threaded run
 * queue through {@link io.mqroute.runtime.VirtualTimeExecutorConfigurator}; a {@link
 * io.mqroute.runtime.VirtualTimeDriver} on one thread runs ready work until quiescent and then
 * jumps the clock to the next timer. {@link io.mqroute.runtime.SimSystem} packages the whole life
 * cycle. Pekko's own dispatchers and loggers stay on real threads.
 *
 * <p>Determinism is checked, not assumed: every task or message that reaches the simulation from
 * another thread during a run (the run queue counts tasks, {@link
 * io.mqroute.runtime.VirtualTimeMailbox} counts messages) makes the run throw {@link
 * io.mqroute.runtime.ForeignTaskException}.
 *
 * <p><b>Real time</b> ({@link io.mqroute.runtime.ClockMode#REAL}, {@link
 * io.mqroute.runtime.ClockMode#REAL_PRECISE}): the same dispatcher id on a fork-join pool.
 *
 * <p>Rules for behaviours, so that both clocks give the same behaviour and virtual time stays
 * deterministic:
 *
 * <ul>
 *   <li>read time only through {@link io.mqroute.runtime.NanoClock}; wait only through typed timers
 *       or a {@link io.mqroute.runtime.TimedDelivery} (one timer whose firing is the tell, on
 *       either clock);
 *   <li>never use stream operators that read the wall clock ({@code throttle}, {@code delay},
 *       {@code *Timeout}, {@code keepAlive}, {@code dropWithin}) in a simulated path;
 *   <li>wrap every javadsl {@code CompletionStage} with {@link io.mqroute.runtime.DirectStage#of}
 *       before attaching callbacks; prefer messages;
 *   <li>materialize streams with {@code Materializer.createMaterializer(ctx)} from a simulated
 *       actor (the system materializer's guardian lives on a real dispatcher);
 *   <li>never let results depend on the iteration order of hash maps keyed by {@code ActorRef} (its
 *       hash is a random uid); draw randomness from seeded generators, one per source;
 *   <li>spawn children with {@code DispatcherSelector.sameAsParent()};
 *   <li>the root is the system's guardian: do not stop it during a run (the system would terminate
 *       from other threads); complete a result instead;
 *   <li>javadsl {@code ActorContext.ask} hops threads (its callback runs on the common pool): use
 *       {@code ctx.pipeToSelf(DirectStage.of(AskPattern.ask(...)), ...)}.
 * </ul>
 */
package io.mqroute.runtime;
