package io.mqroute.actors.device;

import io.mqroute.protocol.Op;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.random.RandomGenerator;

/**
 * A server whose time per request depends on the request's kind (an experiment's {@code device-ops
 * { unlink = "cpu(60us)", ... }}): each kind named there has its own model, every other kind is
 * served by the base device. A FUSE server's work per kind is what its backing call costs (a
 * passthrough server's pread, fstatat, unlinkat, ...): real-fuse/metadata-costs.py measures it for
 * passthrough_hp. All of them are served the same way, on the server thread's CPU ({@code cpu}) or
 * by the device ({@code fixed}, {@code exponential}, {@code lognormal}, {@code empirical}, {@code
 * null}): the poller runs one kind of service per queue.
 */
public final class PerOpDevice implements Device {
  private final Device base;
  private final EnumMap<Op, Device> byOp;

  /**
   * @throws IllegalArgumentException when a kind's model is served another way than the base's, or
   *     is a model that cannot be split by kind (hdd, dpu, real I/O)
   */
  public PerOpDevice(Device base, Map<Op, Device> byOp) {
    this.base = base;
    this.byOp = byOp.isEmpty() ? new EnumMap<>(Op.class) : new EnumMap<>(byOp);
    check("device", base);
    this.byOp.forEach(
        (op, d) -> {
          check(op.name().toLowerCase(Locale.ROOT), d);
          if (d.onCpu() != base.onCpu()) {
            throw new IllegalArgumentException(
                op.name().toLowerCase(Locale.ROOT)
                    + " = \""
                    + d.spec()
                    + "\" is "
                    + (d.onCpu() ? "" : "not ")
                    + "CPU work, device \""
                    + base.spec()
                    + "\" is "
                    + (base.onCpu() ? "" : "not")
                    + ": every kind must be served the same way (cpu(...) for all, or a latency"
                    + " model for all)");
          }
        });
  }

  private static void check(String what, Device d) {
    if (d.onePerMachine() || d instanceof DpuDevice || d instanceof IoDevice) {
      throw new IllegalArgumentException(
          what
              + " = \""
              + d.spec()
              + "\": device-ops splits cpu(...) and the latency models (fixed, exponential,"
              + " lognormal, empirical, null) by request kind, not hdd, dpu or real I/O");
    }
  }

  @Override
  public long serviceNanos(
      Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
    return byOp.getOrDefault(op, base).serviceNanos(op, fileId, offset, length, nowNanos, rnd);
  }

  @Override
  public boolean onCpu() {
    return base.onCpu();
  }

  @Override
  public boolean timeInvariant() {
    return base.timeInvariant() && byOp.values().stream().allMatch(Device::timeInvariant);
  }

  @Override
  public String spec() {
    StringBuilder sb = new StringBuilder(base.spec());
    byOp.forEach(
        (op, d) ->
            sb.append(", ")
                .append(op.name().toLowerCase(Locale.ROOT))
                .append(" ")
                .append(d.spec()));
    return sb.toString();
  }
}
