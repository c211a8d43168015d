/**
 * The real-time cluster node (architecture.md §5a): {@link io.mqroute.cluster.DeviceQueue} on
 * device nodes serves requests on a device backend and registers with the Receptionist under {@link
 * io.mqroute.cluster.DeviceQueue#QUEUES}; {@link io.mqroute.cluster.HostRouter} on host nodes
 * follows that listing and routes client requests to the queues with a {@link
 * io.mqroute.policies.QueueSelector}. A queue that leaves the listing, or falls silent with
 * requests outstanding, is out of the masks at once and what it was sent ends with {@code
 * ECONNABORTED} (fate unknown); {@code ENOTCONN} means "not done". Real time only: this module is
 * never on the simulator's class path.
 */
package io.mqroute.cluster;
