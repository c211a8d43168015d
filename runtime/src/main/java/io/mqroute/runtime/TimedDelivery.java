package io.mqroute.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.ClassicActorSystemProvider;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.actor.typed.ActorRef;
import scala.concurrent.duration.FiniteDuration;

/**
 * One message delivered to an actor at an absolute instant of the system's {@link NanoClock}: a
 * first-class timed delivery, one timer entry whose firing is the {@code tell}, without the typed
 * timer or {@code ActorContext.scheduleOnce} wrappers. In virtual time the driver fires it inline
 * (one timer; the receiver's mailbox run is the only task); with {@link PreciseRealTimeScheduler}
 * the timer thread tells the receiver; with any other scheduler it is a plain {@code scheduleOnce}.
 * The same behaviour therefore runs on both clocks.
 *
 * <p>A pending delivery can be redirected once ({@link #redirect}): a Core that delivered its
 * work's result straight from the end-of-work instant, and then finds more work queued behind it,
 * turns the same timer into its own end-of-work message instead of arming a second one. The
 * redirect and the firing race safely across threads: exactly one of the two wins.
 *
 * <p>Obtain the factory once per actor ({@code TimedDelivery.Clock d = TimedDelivery.of(system)}).
 */
public final class TimedDelivery implements Runnable {
  private static final int PENDING = 0;
  private static final int FIRED = 1;
  private static final int REDIRECTED = 2;
  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(TimedDelivery.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final ActorRef<Object> to;
  private final Object message;
  private ActorRef<Object> redirectTo;
  private Object redirectMessage;

  @SuppressWarnings("unused") // through STATE (plain access in virtual time)
  private volatile int state;

  /**
   * In virtual time the firing, the redirect and every look at the state are on the driver thread:
   * plain reads and writes of {@code state} instead of a CAS per delivery.
   */
  private final boolean driverOnly;

  @SuppressWarnings("unchecked")
  private TimedDelivery(ActorRef<?> to, Object message, boolean driverOnly) {
    this.to = (ActorRef<Object>) to;
    this.message = message;
    this.driverOnly = driverOnly;
  }

  /** Schedules timed deliveries on one ActorSystem's clock. */
  public interface Clock extends NanoClock {
    /**
     * Delivers {@code message} to {@code to} at {@code deadlineNanos} of this clock (now, if it has
     * passed).
     */
    <T> TimedDelivery at(long deadlineNanos, ActorRef<T> to, T message);

    /** Delivers {@code message} to {@code to} {@code delayNanos} from now (negative: now). */
    default <T> TimedDelivery after(long delayNanos, ActorRef<T> to, T message) {
      return at(TimerQueue.saturatedAdd(nanoTime(), Math.max(0, delayNanos)), to, message);
    }
  }

  /** The timed-delivery clock of {@code system}: its virtual clock, or the real one. */
  public static Clock of(ClassicActorSystemProvider system) {
    Scheduler scheduler = system.classicSystem().scheduler();
    if (scheduler instanceof VirtualTimeScheduler virtual) {
      return new Absolute(virtual::nanoTime, virtual::scheduleAt, true);
    }
    if (scheduler instanceof PreciseRealTimeScheduler precise) {
      return new Absolute(NanoClock.SYSTEM, precise::scheduleAt, false);
    }
    return new OnAny(scheduler);
  }

  /**
   * Instead of the original message, deliver {@code message} to {@code to} at the same instant.
   *
   * @return false if the original was already delivered (or redirected): nothing changes
   */
  @SuppressWarnings("unchecked")
  public <T> boolean redirect(ActorRef<T> to, T message) {
    if (driverOnly) {
      if ((int) STATE.get(this) != PENDING) {
        return false;
      }
      redirectTo = (ActorRef<Object>) to;
      redirectMessage = message;
      STATE.set(this, REDIRECTED);
      return true;
    }
    if ((int) STATE.getAcquire(this) != PENDING) {
      return false;
    }
    redirectTo = (ActorRef<Object>) to;
    redirectMessage = message;
    return STATE.compareAndSet(this, PENDING, REDIRECTED);
  }

  /** True once the original message has been handed to its receiver. */
  public boolean delivered() {
    return (int) (driverOnly ? STATE.get(this) : STATE.getAcquire(this)) == FIRED;
  }

  /**
   * Virtual time, a lone delivery (see {@link VirtualTimeScheduler#fireDue}): hands the message
   * straight to its idle receiver ({@link VirtualTimeDispatcher#invokeIdle}).
   *
   * @return false (nothing done) when the receiver is not idle: {@link #run} it instead
   */
  boolean deliverNow() {
    boolean pending = (int) STATE.get(this) == PENDING;
    if (!VirtualTimeDispatcher.invokeIdle(
        pending ? to : redirectTo, pending ? message : redirectMessage)) {
      return false;
    }
    if (pending) {
      STATE.set(this, FIRED);
    }
    return true;
  }

  /** Called by the scheduler at the deadline. */
  @Override
  public void run() {
    if (driverOnly) {
      if ((int) STATE.get(this) == PENDING) {
        STATE.set(this, FIRED);
        to.tell(message);
      } else {
        redirectTo.tell(redirectMessage);
      }
      return;
    }
    if (STATE.compareAndSet(this, PENDING, FIRED)) {
      to.tell(message);
    } else if ((int) STATE.getAcquire(this) == REDIRECTED) {
      redirectTo.tell(redirectMessage);
    }
  }

  @Override
  public String toString() {
    return "TimedDelivery[" + message.getClass().getSimpleName() + " to " + to.path() + "]";
  }

  /** A scheduler that fires a task at an absolute instant of its clock. */
  @FunctionalInterface
  private interface AtInstant {
    void scheduleAt(long deadlineNanos, Runnable task);
  }

  /** Virtual time or PreciseRealTimeScheduler: the deadline goes to the scheduler as it is. */
  private record Absolute(NanoClock clock, AtInstant scheduler, boolean driverOnly)
      implements Clock {
    @Override
    public long nanoTime() {
      return clock.nanoTime();
    }

    @Override
    public <T> TimedDelivery at(long deadlineNanos, ActorRef<T> to, T message) {
      TimedDelivery d = new TimedDelivery(to, message, driverOnly);
      scheduler.scheduleAt(deadlineNanos, d);
      return d;
    }
  }

  private record OnAny(Scheduler scheduler) implements Clock {
    @Override
    public long nanoTime() {
      return System.nanoTime();
    }

    @Override
    public <T> TimedDelivery at(long deadlineNanos, ActorRef<T> to, T message) {
      TimedDelivery d = new TimedDelivery(to, message, false);
      long delay = Math.max(0, deadlineNanos - System.nanoTime());
      scheduler.scheduleOnce(
          FiniteDuration.apply(delay, TimeUnit.NANOSECONDS),
          d,
          scala.concurrent.ExecutionContext.parasitic$.MODULE$);
      return d;
    }
  }
}
