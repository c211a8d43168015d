/**
 * Routing policies of mqroute as plain Java (no Pekko): the {@link
 * io.mqroute.policies.QueueSelector} contract and the {@link io.mqroute.policies.RoutingView} it
 * reads, with the O(1)-updatable {@link io.mqroute.policies.MutableRoutingView} a router actor
 * owns.
 *
 * <p>Layers, bottom up: {@code topology} (masks, CPU layout, online set) and {@code random}
 * (reproducible named streams) → this package (contracts, parameter checking) → {@code selector}
 * (queue selection) and {@code strategy} (what queues, servers, wake-ups and background admission
 * do). Every decision method is allocation-free so a test can call it a million times.
 */
package io.mqroute.policies;
