package io.mqroute.chaos;

import java.util.Locale;

/** What CPU hotplug does to the queues (kernel notes §5). */
public enum Semantics {
  /**
   * Today's fuse-over-io-uring and virtio-fs: queues never vanish, masks are static, and the app
   * and server threads of an offline CPU migrate and keep serving from another CPU.
   */
  KERNEL,
  /**
   * blk-mq style: queues whose CPU is offline leave the masks (the selector is wrapped in
   * hotplug-aware) and their overflow lists are re-routed; what is on their rings drains.
   */
  HOTPLUG_AWARE;

  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * @throws IllegalArgumentException naming the valid choices
   */
  public static Semantics parse(String s) {
    for (Semantics x : values()) {
      if (x.id().equals(s)) {
        return x;
      }
    }
    throw new IllegalArgumentException(
        "unknown semantics \"" + s + "\" (valid: kernel, hotplug-aware)");
  }
}
