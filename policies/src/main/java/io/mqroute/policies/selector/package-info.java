/**
 * Queue selectors, one final class each with a validating builder: {@code static-cpu} ({@code
 * fuse_uring_task_to_queue}), {@code mq-map} ({@code virtio_fs_map_queues}), {@code reduced-v3}
 * ({@code fuse_uring_get_queue} of the reduced-queue series), the baselines {@code random}, {@code
 * round-robin}, {@code p2c}, {@code shortest}, {@code single}, and the {@code hotplug-aware}
 * decorator; {@link io.mqroute.policies.selector.Selectors} creates them by name.
 */
package io.mqroute.policies.selector;
