/** CPU layout, CPU online state and the word-backed masks (kernel cpumasks) policies read. */
package io.mqroute.policies.topology;
