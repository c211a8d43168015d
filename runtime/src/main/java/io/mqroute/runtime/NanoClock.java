package io.mqroute.runtime;

import org.apache.pekko.actor.ClassicActorSystemProvider;

/**
 * The only time source a behaviour may read: virtual nanoseconds when the ActorSystem runs in
 * virtual time, {@link System#nanoTime()} otherwise. Only differences between two readings are
 * meaningful (the origin is the system's creation in virtual time and arbitrary in real time).
 *
 * <p>Obtain it once per actor, in {@code Behaviors.setup}: {@code NanoClock clock =
 * NanoClock.of(ctx.getSystem());}. This package is the only place in the main code of the machine
 * allowed to call {@code System.nanoTime}.
 */
@FunctionalInterface
public interface NanoClock {
  /** The wall clock ({@link System#nanoTime()}). */
  NanoClock SYSTEM = System::nanoTime;

  /** Current time in nanoseconds. */
  long nanoTime();

  /** The virtual clock of {@code system} if it runs in virtual time, else {@link #SYSTEM}. */
  static NanoClock of(ClassicActorSystemProvider system) {
    return system.classicSystem().scheduler() instanceof VirtualTimeScheduler virtual
        ? virtual
        : SYSTEM;
  }
}
