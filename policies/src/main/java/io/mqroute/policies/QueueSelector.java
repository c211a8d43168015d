package io.mqroute.policies;

import io.mqroute.policies.random.RandomSource;

/**
 * Picks the request queue for one request, as the kernel does at submit time ({@code
 * fuse_uring_get_queue}, {@code virtio_fs_send_req}'s {@code mq_map} lookup, ...).
 *
 * <p>Contract (checked for every implementation by the shared contract test):
 *
 * <ul>
 *   <li>the answer is a queue that {@link RoutingView#registered(int) is registered} in the view,
 *       or {@link #NONE};
 *   <li>it reads the view only (stale values are allowed, as the kernel's {@code READ_ONCE});
 *   <li>all randomness comes from the given source, so the same seed gives the same sequence;
 *   <li>a decision allocates nothing.
 * </ul>
 *
 * Implementations may keep state (a round-robin cursor, a cached map) and are therefore not
 * thread-safe: each router actor owns its own instance.
 */
public interface QueueSelector {

  /**
   * "No queue": the router ends a foreground request with {@code EINVAL} and refuses a background
   * one with {@code ENOTCONN}, as the kernel does for a {@code NULL} queue.
   */
  int NONE = -1;

  /**
   * The queue for a request submitted on {@code cpu}.
   *
   * @param view what the submitter can see of the queues (read only)
   * @param cpu the CPU the submitting task runs on now ({@code task_cpu(current)})
   * @param background whether the request is asynchronous ({@code FR_BACKGROUND})
   * @param random the routing stream, used for every random choice
   * @return a registered queue index, or {@link #NONE}
   */
  int select(RoutingView view, int cpu, boolean background, RandomSource random);

  /**
   * True for a selector that takes the submitting CPU's id as a queue index (fuse-over-io-uring's
   * {@code qid = task_cpu(current)}): it means something only with a queue per CPU, and a machine
   * with virtio or independent queues refuses it.
   */
  default boolean indexesQueuesByCpu() {
    return false;
  }
}
