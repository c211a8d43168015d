package io.mqroute.cluster.sweep;

/**
 * What a worker node does with one run's order: the module that knows experiments supplies it (the
 * cluster module does not). Called on a thread of the worker's own pool, never on an actor's.
 */
@FunctionalInterface
public interface SweepWork {
  /**
   * @return the finished run's result, encoded
   * @throws Failed when this run cannot be done (it would fail again anywhere)
   */
  byte[] run(byte[] order) throws Failed;

  /** A run that cannot be done, with a one-line reason. */
  final class Failed extends Exception {
    private static final long serialVersionUID = 1L;

    public Failed(String reason) {
      super(reason, null, false, false);
    }
  }
}
