package io.mqroute.workload;

/**
 * fio's {@code cpus_allowed_policy=}: {@code SHARED} (default) lets every clone run on any CPU of
 * {@code cpus_allowed}; {@code SPLIT} pins each clone to one CPU of the set, round robin ({@link
 * CpuList#cpuForClone(int)}).
 */
public enum CpusAllowedPolicy {
  SHARED,
  SPLIT
}
