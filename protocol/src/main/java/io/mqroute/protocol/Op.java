package io.mqroute.protocol;

/**
 * FUSE opcodes that mqroute models (names as in {@code include/uapi/linux/fuse.h}, without the
 * {@code FUSE_} prefix). Every one travels the same queues (fuse-over-io-uring and virtio-fs carry
 * every opcode but FORGET, which takes virtio-fs's hiprio queue or, under fuse-over-io-uring,
 * /dev/fuse); READ and WRITE carry data, the rest are what fio's metadata, fallocate and truncate
 * engines send (see {@code machine/IoCalls}).
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
  UNLINK,
  // appended: the wire carries the ordinal (RequestSerializer), so existing values keep theirs
  MKDIR,
  RMDIR,
  /** fallocate(2): allocate, extend or punch a hole; carries a range, no data. */
  FALLOCATE,
  /** truncate(2), chmod(2), utimes(2), ...: the attributes to change; no data. */
  SETATTR,
  /** getxattr(2), also the kernel's own security.capability check before a file is modified. */
  GETXATTR;

  /**
   * FORGET is the only request that the kernel may drop silently; every other one gets exactly one
   * reply.
   */
  public boolean expectsReply() {
    return this != FORGET;
  }

  /**
   * False for the requests no task waits for or reaps: the kernel ends them with a callback where
   * they complete (RELEASE: fuse_file_put sends it in the background, fuse_release_end frees the
   * file) or does not answer them (FORGET).
   */
  public boolean hasWaiter() {
    return this != RELEASE && this != FORGET;
  }

  public boolean isData() {
    return this == READ || this == WRITE;
  }
}
