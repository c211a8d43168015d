package io.mqroute.protocol;

import org.apache.pekko.actor.typed.ActorRef;

/**
 * One file-system request on its way from a submitting CPU to a queue (a {@code struct fuse_req}).
 *
 * @param id unique per run (the kernel's {@code unique}); completions are matched by it
 * @param op what the request does
 * @param fileId which file (an id, never a path: a file backend maps it under its root)
 * @param offset byte offset in the file
 * @param length bytes to transfer
 * @param background true for async requests ({@code FR_BACKGROUND}: io_uring/libaio, readahead,
 *     writeback)
 * @param cpu the CPU the submitting task ran on ({@code task_cpu(current)})
 * @param submitNanos when the application submitted it, on the run's clock
 * @param replyTo where the completion goes when it must cross an actor boundary; null when the
 *     receiver already knows (inside one machine model)
 */
public record Request(
    long id,
    Op op,
    long fileId,
    long offset,
    int length,
    boolean background,
    int cpu,
    long submitNanos,
    ActorRef<Completion> replyTo)
    implements WireMessage {

  public Request {
    if (op == null) {
      throw new IllegalArgumentException("op must not be null");
    }
    if (offset < 0) {
      throw new IllegalArgumentException("offset must be >= 0, was " + offset);
    }
    if (length < 0) {
      throw new IllegalArgumentException("length must be >= 0, was " + length);
    }
  }

  /** The same request, answered to {@code ref}. */
  public Request withReplyTo(ActorRef<Completion> ref) {
    return new Request(id, op, fileId, offset, length, background, cpu, submitNanos, ref);
  }
}
