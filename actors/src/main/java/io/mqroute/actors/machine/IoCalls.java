package io.mqroute.actors.machine;

import io.mqroute.protocol.Op;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What one fio I/O sends down the FUSE queues. {@link #DATA}: one READ or WRITE, for every engine
 * that reads and writes at offsets. The others are fio engines whose I/O is a system call that
 * sends other FUSE requests: {@code falloc} and {@code ftruncate} (one call per I/O, on the open
 * file) and the file-operation engines of fio's {@code engines/fileoperations.c} (one call per
 * file, when fio opens it; the I/Os fio then does to the file are fake, {@code FIO_FAKEIO}, and
 * send nothing).
 *
 * <p>The requests of each call are those Linux 6.18 sends for it on a FUSE mount with entry and
 * attribute timeouts of 0 and {@code default_permissions} (virtio-fs always mounts with it;
 * virtiofsd {@code --cache=never} and passthrough_hp {@code --nocache} answer with timeouts of 0:
 * the mount whose reads and writes all reach the server, which the model already assumes), the file
 * in the directory fio runs in, counted request by request with {@code
 * real-fuse/metadata-requests.py} (libfuse passthrough_hp {@code --nocache --debug-fuse}; the table
 * is in docs/fio-jobs.md). Every path walk checks the directory's permission first ({@code
 * may_lookup} → {@code fuse_permission}, whose attributes have expired: GETATTR), then looks the
 * name up ({@code fuse_dentry_revalidate} or {@code fuse_lookup}: LOOKUP); creating or removing a
 * name checks the directory again ({@code may_o_create}, {@code may_create}, {@code may_delete}:
 * GETATTR); {@code fallocate} and {@code ftruncate} first ask whether the file carries capabilities
 * to drop ({@code file_remove_privs} → {@code security_inode_need_killpriv}: GETXATTR of {@code
 * security.capability}). Not sent on these queues: the FORGET an unlinked inode's eviction sends
 * (virtio-fs's hiprio queue, /dev/fuse under fuse-over-io-uring).
 */
public enum IoCalls {
  /** One READ or WRITE per I/O. */
  DATA(null, null),
  /**
   * fio's falloc (engines/falloc.c): each I/O is one {@code fallocate(2)}: reads with {@code
   * FALLOC_FL_KEEP_SIZE}, writes with mode 0, trims with {@code PUNCH_HOLE | KEEP_SIZE}
   * (fuse_file_fallocate).
   */
  FALLOCATE(call(List.of(Op.GETXATTR, Op.FALLOCATE)), null),
  /** fio's ftruncate (engines/ftruncate.c): each write is {@code ftruncate(fd, offset)}. */
  FTRUNCATE(call(List.of(Op.GETXATTR, Op.SETATTR)), null),
  /**
   * fio's filecreate: {@code open(O_CREAT | O_RDWR)} of a name that does not exist (the lookup
   * misses, fuse_atomic_open → fuse_create_open; {@code may_open} checks the new file), then, when
   * fio is done with the file, {@code close}: FLUSH (fuse_flush), and RELEASE sent in the
   * background (fuse_file_put). A file that exists (a second pass) is opened: FUSE_OPEN.
   */
  FILE_CREATE(
      new Call(
          List.of(Op.GETATTR, Op.GETATTR, Op.LOOKUP, Op.CREATE, Op.GETATTR),
          List.of(Op.FLUSH),
          List.of(Op.RELEASE),
          0),
      new Call(
          List.of(Op.GETATTR, Op.LOOKUP, Op.GETATTR, Op.OPEN),
          List.of(Op.FLUSH),
          List.of(Op.RELEASE),
          0)),
  /** fio's filestat: {@code stat(2)} (fuse_getattr → fuse_do_getattr). */
  FILE_STAT(call(List.of(Op.GETATTR, Op.LOOKUP, Op.GETATTR)), null),
  /**
   * fio's filedelete: {@code unlink(2)} (fuse_unlink); a second pass finds no name: ENOENT after
   * the lookup.
   */
  FILE_DELETE(call(List.of(Op.GETATTR, Op.LOOKUP, Op.GETATTR, Op.UNLINK)), fails(IoCalls.ENOENT)),
  /**
   * fio's dircreate: {@code mkdir(2)} (fuse_mkdir); a second pass finds the name: EEXIST after the
   * lookup. (fio then closes descriptor 0, which is not on the mount.)
   */
  DIR_CREATE(call(List.of(Op.GETATTR, Op.LOOKUP, Op.GETATTR, Op.MKDIR)), fails(IoCalls.EEXIST)),
  /** fio's dirstat: {@code stat(2)} of a directory. */
  DIR_STAT(call(List.of(Op.GETATTR, Op.LOOKUP, Op.GETATTR)), null),
  /** fio's dirdelete: {@code rmdir(2)} (fuse_rmdir); a second pass: ENOENT after the lookup. */
  DIR_DELETE(call(List.of(Op.GETATTR, Op.LOOKUP, Op.GETATTR, Op.RMDIR)), fails(IoCalls.ENOENT));

  /** Linux's ENOENT and EEXIST, what a second pass over deleted or created names ends with. */
  static final int ENOENT = 2;

  static final int EEXIST = 17;

  /**
   * The FUSE requests of one system call, in the order the kernel sends them: {@code timed} while
   * the application waits inside the call fio times (its latency), {@code after} waited for too but
   * outside the timed call (the close after a create), {@code background} sent without waiting
   * (RELEASE). A call with {@code errno != 0} fails with it once its timed requests have ended.
   */
  public record Call(List<Op> timed, List<Op> after, List<Op> background, int errno) {
    public Call {
      timed = List.copyOf(timed);
      after = List.copyOf(after);
      background = List.copyOf(background);
      if (timed.isEmpty() || errno < 0) {
        throw new IllegalArgumentException("a call sends at least one timed request");
      }
    }

    /** The waited-for requests, timed then after: the i-th one the thread sends. */
    Op waited(int i) {
      return i < timed.size() ? timed.get(i) : after.get(i - timed.size());
    }

    int waitedCount() {
      return timed.size() + after.size();
    }
  }

  private final Call first;
  private final Call again;

  IoCalls(Call first, Call again) {
    this.first = first;
    this.again = again;
  }

  /**
   * The call of an I/O ({@link #DATA}: none). For the per-file engines, {@code again} is a file's
   * second or later visit (fio's next loop over its files), when a created name exists and a
   * deleted one does not.
   */
  public Call call(boolean again) {
    return again && this.again != null ? this.again : first;
  }

  /**
   * One call per file, at fio's open of it (fileoperations.c's {@code open_file} hooks), instead of
   * one per I/O.
   */
  public boolean perFile() {
    return this != DATA && this != FALLOCATE && this != FTRUNCATE;
  }

  /** Every opcode this kind of I/O may send. */
  public Set<Op> ops() {
    if (this == DATA) {
      return EnumSet.of(Op.READ, Op.WRITE);
    }
    Set<Op> ops = EnumSet.noneOf(Op.class);
    for (Call c : again != null ? List.of(first, again) : List.of(first)) {
      ops.addAll(c.timed());
      ops.addAll(c.after());
      ops.addAll(c.background());
    }
    return ops;
  }

  private static Call call(List<Op> timed) {
    return new Call(timed, List.of(), List.of(), 0);
  }

  private static Call fails(int errno) {
    return new Call(List.of(Op.GETATTR, Op.LOOKUP), List.of(), List.of(), errno);
  }
}
