/**
 * An NBD server (the NBD protocol's fixed newstyle handshake and transmission phase with simple
 * replies, doc/proto.md of NetworkBlockDevice/nbd) on a Netty event loop, in front of an {@link
 * io.mqroute.nbd.NbdBackend}: in memory for tests, or a host router whose device queues serve one
 * file.
 */
package io.mqroute.nbd;
