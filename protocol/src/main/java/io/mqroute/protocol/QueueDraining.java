package io.mqroute.protocol;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * A device queue's announcement to the routers it served that it is withdrawing on purpose (its
 * node shuts down in order) and will still finish what it has. A queue that leaves the Receptionist
 * listing without this announcement has crashed or been stopped: its requests in flight will never
 * be answered.
 *
 * <p>Sent before the queue deregisters, on the same association as the registry's gossip, so a
 * router sees it before the listing without the queue.
 *
 * @param queue the queue's registered endpoint (as in the listing)
 * @param nodeUid the queue node's incarnation ({@code UniqueAddress.longUid}), 0 outside a cluster
 */
public record QueueDraining(ActorRef<Request> queue, long nodeUid) implements WireMessage {}
