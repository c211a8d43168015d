/**
 * What a queue, its server and the connection do around a routing decision: full-ring handling
 * (virtio-fs seed 001), ENOMEM handling, dispatch order at the server (seed 004), where a waiter
 * wakes (seed 003) and background admission ({@code max_background}, one per uring queue); {@link
 * io.mqroute.policies.strategy.Strategies} parses their specs.
 */
package io.mqroute.policies.strategy;
