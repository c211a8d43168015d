package io.mqroute.protocol;

/**
 * FUSE opcodes that mqroute models (names as in {@code include/uapi/linux/fuse.h}, without the
 * {@code FUSE_} prefix). Only the data path matters to queue selection; the rest exist so that
 * workloads and the cluster protocol can say what a request is.
 */
public enum Op {
  READ,
  WRITE,
  FSYNC,
  FLUSH,
  /**
   * Has no reply in the kernel; a FORGET that cannot be queued is dropped (virtio-fs hiprio queue).
   */
  FORGET,
  GETATTR,
  LOOKUP,
  OPEN,
  RELEASE,
  CREATE,
  UNLINK;

  /**
   * FORGET is the only request that the kernel may drop silently; every other one gets exactly one
   * reply.
   */
  public boolean expectsReply() {
    return this != FORGET;
  }

  public boolean isData() {
    return this == READ || this == WRITE;
  }
}
