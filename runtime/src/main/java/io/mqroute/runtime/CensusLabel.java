package io.mqroute.runtime;

/**
 * A message that names itself in a message census ({@link VirtualTimeDriver#startCensus}) more
 * precisely than by its class, e.g. a CPU-work envelope by the kind of work it carries.
 */
public interface CensusLabel {
  /** The census key; called only while a census runs. */
  String censusLabel();
}
