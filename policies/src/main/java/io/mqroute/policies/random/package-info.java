/**
 * Reproducible named random streams (FNV-1a + SplitMix64) so experiments use common random numbers.
 */
package io.mqroute.policies.random;
