/**
 * A request queue's decisions without a transport: {@link io.mqroute.policies.queue.RingQueue}
 * (ring slots, overflow list, full-ring strategy, ENOMEM policy, the dispatch work, the counters
 * and invariants), shared by the virtual-time queue actor and the cluster's device queue.
 */
package io.mqroute.policies.queue;
