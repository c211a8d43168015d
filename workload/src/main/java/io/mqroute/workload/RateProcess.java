package io.mqroute.workload;

/**
 * fio's {@code rate_process=}: how a rate-limited job spaces its submissions. {@code LINEAR} (fio's
 * default) issues at fixed intervals of {@code 1/rate_iops}; {@code POISSON} draws exponential gaps
 * with the same mean, an open-loop arrival process.
 */
public enum RateProcess {
  LINEAR,
  POISSON
}
