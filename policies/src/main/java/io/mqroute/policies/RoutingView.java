package io.mqroute.policies;

import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.policies.topology.QueueMask;

/**
 * What a {@link QueueSelector} may read: per-queue load, which queues are registered (globally and
 * per NUMA node, as the reduced-queue series' {@code registered_q_mask} and {@code
 * numa_registered_q_mask[node]}), and the CPU layout with its online state.
 *
 * <p>Queues are numbered {@code 0 .. queueCount()-1}. With per-CPU ring queues queue {@code i}
 * belongs to CPU {@code i}; with reduced queues only some of them are registered. The masks
 * returned here are live, read-only and must not be retained across decisions by a selector that
 * wraps another view.
 */
public interface RoutingView {

  /** Number of queue slots ({@code max_nr_queues}); registered or not. */
  int queueCount();

  /**
   * The immutable CPU layout; {@link #cpuCount()}, {@link #nodeCount()} and {@link #cpuToNode}
   * agree with it.
   */
  CpuTopology topology();

  /** Number of possible CPUs. */
  int cpuCount();

  /** Number of NUMA nodes ({@code nr_numa_nodes}); node ids are {@code 0 .. nodeCount()-1}. */
  int nodeCount();

  /** Requests queued on or in service by queue {@code q} (the series' {@code q->nr_reqs}). */
  int nrReqs(int q);

  /**
   * Whether queue {@code q} exists; {@code false} for any index outside {@code [0, queueCount())}.
   */
  boolean registered(int q);

  /** Every registered queue. */
  QueueMask registeredQueues();

  /** The registered queues whose home CPU is on {@code node}. */
  QueueMask registeredQueues(int node);

  /** Queues whose home CPU ({@link #queueCpu(int)}) is online. */
  QueueMask onlineQueues();

  /** NUMA node of {@code cpu}. */
  int cpuToNode(int cpu);

  /** Whether {@code cpu} is online. */
  boolean cpuOnline(int cpu);

  /** The home CPU of queue {@code q}: the CPU its server thread is bound to. */
  int queueCpu(int q);
}
